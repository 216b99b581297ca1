package checkpointcost

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// Verdict is what the verifier found in the committed output.
type Verdict struct {
	// Records is the size of the bounded range.
	Records int64
	// Lost counts range records absent from the committed output.
	Lost int64
	// Dup counts extra occurrences: a record committed k times adds k-1.
	Dup int64
	// Extra counts committed records outside the range.
	Extra int64
	// Files is how many committed transaction files were read.
	Files int
}

// OK reports whether the output is exactly the range, once each.
func (v Verdict) OK() bool { return v.Lost == 0 && v.Dup == 0 && v.Extra == 0 }

// Holes counts the offsets in [lo, hi) of partition p that hold no record
// a reader delivers (a transaction's control records, an aborted
// transaction's records): the verifier never counts them as lost. Nil
// means every offset holds one.
type Holes func(p int, lo, hi int64) int64

// Verify reads the committed output under output and checks that it holds
// every record of the range [start[p], stop[p]) exactly once per partition
// p, with no gap but the holes. Only an unreadable or malformed output is
// an error; lost, duplicate and extra records are counted in the Verdict.
func Verify(output string, start, stop []int64, holes Holes) (Verdict, error) {
	if holes == nil {
		holes = func(int, int64, int64) int64 { return 0 }
	}
	if len(start) != len(stop) {
		return Verdict{}, fmt.Errorf("verify: %d start offsets for %d stop offsets", len(start), len(stop))
	}
	var v Verdict
	for p := range stop {
		if stop[p] < start[p] {
			return Verdict{}, fmt.Errorf("verify: partition %d stops at %d before its start %d", p, stop[p], start[p])
		}
		v.Records += stop[p] - start[p] - holes(p, start[p], stop[p])
	}
	dir := filepath.Join(output, committedDir)
	ents, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Verdict{}, fmt.Errorf("verify: %w", err)
	}
	byPart := make([][]run, len(stop))
	for _, e := range ents {
		if _, ok := txnID(e.Name()); !ok {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return Verdict{}, fmt.Errorf("verify: %w", err)
		}
		runs, err := decodeRuns(data)
		if err != nil {
			return Verdict{}, fmt.Errorf("verify %s: %w", e.Name(), err)
		}
		v.Files++
		for _, r := range runs {
			if int(r.Part) < 0 || int(r.Part) >= len(stop) {
				v.Extra += r.Count
				continue
			}
			byPart[r.Part] = append(byPart[r.Part], r)
		}
	}
	for p, runs := range byPart {
		lost, dup, extra := sweep(runs, start[p], stop[p], func(lo, hi int64) int64 { return holes(p, lo, hi) })
		v.Lost += lost
		v.Dup += dup
		v.Extra += extra
	}
	return v, nil
}

// sweep counts, for one partition's runs, the range records never covered
// (holes aside), the extra coverings, and the records outside [lo, hi).
func sweep(runs []run, lo, hi int64, holes func(lo, hi int64) int64) (lost, dup, extra int64) {
	slices.SortFunc(runs, func(a, b run) int {
		switch {
		case a.First < b.First:
			return -1
		case a.First > b.First:
			return 1
		}
		return 0
	})
	covered := lo // [lo, covered) is covered at least once
	for _, r := range runs {
		first, end := r.First, r.First+r.Count
		if first < lo {
			extra += min(end, lo) - first
			first = lo
		}
		if end > hi {
			extra += end - max(first, hi)
			end = hi
		}
		if first >= end {
			continue
		}
		if first > covered {
			lost += first - covered - holes(covered, first)
			covered = first
		}
		dup += min(end, covered) - first
		covered = max(covered, end)
	}
	lost += hi - covered - holes(covered, hi)
	return lost, dup, extra
}

package ladder

import (
	"fmt"
	"math/rand/v2"

	"github.com/fastpathlab/fplab/cell"
)

// Entry is one scheduled child run: a cell (possibly an A/A copy) in one
// round. Warm-up entries are run and discarded; measured entries carry their
// repetition index and are journaled.
type Entry struct {
	Cell   cell.Cell
	Round  int // 0-based over warm-up then measured rounds
	Rep    int // measured repetition index; -1 for warm-up
	Warmup bool
}

// Key identifies a measured cell-repetition in the journal.
func (e Entry) Key() string { return rowKey(e.Cell.Name(), e.Rep) }

func rowKey(cell string, rep int) string { return fmt.Sprintf("%s#%d", cell, rep) }

// Schedule is the whole run order of a spec.
type Schedule struct {
	Cells       []cell.Cell // the expanded cells, without A/A copies
	Calibration cell.Cell   // the cell run twice per round as aa=a and aa=b
	Rounds      [][]Entry
}

// NewSchedule expands s and lays out s.Warmup warm-up rounds followed by
// s.Repetitions measured rounds. Every round runs every cell once plus the
// A/A pair, in its own order shuffled from (s.Seed, round): the same spec
// always gives the same schedule, which is what Resume relies on.
func NewSchedule(s *Spec) (*Schedule, error) {
	cells, err := Expand(s)
	if err != nil {
		return nil, err
	}
	cal, err := calibrationCell(s, cells)
	if err != nil {
		return nil, fmt.Errorf("calibrate: %w", err)
	}
	a, b := cal, cal
	a.AA, b.AA = cell.AAFirst, cell.AASecond
	sch := &Schedule{Cells: cells, Calibration: cal}
	for r := 0; r < s.Warmup+s.Repetitions; r++ {
		rep, warm := r-s.Warmup, r < s.Warmup
		if warm {
			rep = -1
		}
		round := make([]Entry, 0, len(cells)+2)
		for _, c := range append(append([]cell.Cell{}, cells...), a, b) {
			round = append(round, Entry{Cell: c, Round: r, Rep: rep, Warmup: warm})
		}
		shuffle(round, s.Seed, uint64(r))
		sch.Rounds = append(sch.Rounds, round)
	}
	return sch, nil
}

// Len is the number of entries over all rounds.
func (s *Schedule) Len() int {
	n := 0
	for _, r := range s.Rounds {
		n += len(r)
	}
	return n
}

// Shapes lists the distinct cluster shapes in first-use order.
func (s *Schedule) Shapes() []Shape {
	var out []Shape
	seen := map[Shape]bool{}
	for _, c := range s.Cells {
		if sh := shapeOf(c); !seen[sh] {
			seen[sh] = true
			out = append(out, sh)
		}
	}
	return out
}

// shuffle is a Fisher-Yates shuffle driven by PCG, whose output is fixed by
// its definition, so schedules stay reproducible across Go releases.
func shuffle(es []Entry, seed, round uint64) {
	g := rand.NewPCG(seed, round^0x9e3779b97f4a7c15)
	for i := len(es) - 1; i > 0; i-- {
		j := int(g.Uint64() % uint64(i+1))
		es[i], es[j] = es[j], es[i]
	}
}

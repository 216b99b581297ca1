package results

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// LagPoint is one bucket of a live repetition's lag series (LagPath): the
// rung keeps, per 100 ms since the producer's T0, the most records its
// reader was behind the producer's schedule; a bucket without a hand-over
// has no point.
type LagPoint struct {
	// TMs is the bucket's start in milliseconds since T0.
	TMs int64
	// Rec is the most records behind in the bucket; Ms is that as the time
	// the producer takes to write them at its rate.
	Rec int64
	Ms  float64
}

// lagHeader is the first line of every lag series.
const lagHeader = "t_ms,lag_rec,lag_ms"

// readLag reads a lag series file: lagHeader, then one "t_ms,lag_rec,lag_ms"
// row per bucket, t_ms rising. A malformed row is a *FileError naming its
// line; a missing file is one that errors.Is fs.ErrNotExist.
func readLag(path string) ([]LagPoint, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fileError("read lag series", path, 0, err)
	}
	defer f.Close()
	var out []LagPoint
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSuffix(sc.Text(), "\r")
		if line == 1 {
			if text != lagHeader {
				return nil, &FileError{Op: "read lag series", File: path, Line: line,
					Err: fmt.Errorf("header %q, want %q", text, lagHeader)}
			}
			continue
		}
		p, err := parseLagRow(text)
		if err == nil && len(out) > 0 && p.TMs <= out[len(out)-1].TMs {
			err = fmt.Errorf("t_ms %d after %d: the series must run forward", p.TMs, out[len(out)-1].TMs)
		}
		if err != nil {
			return nil, &FileError{Op: "read lag series", File: path, Line: line, Err: err}
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fileError("read lag series", path, line+1, err)
	}
	if line == 0 {
		return nil, &FileError{Op: "read lag series", File: path, Err: fmt.Errorf("empty, want the header %q", lagHeader)}
	}
	return out, nil
}

// parseLagRow parses one row of a lag series.
func parseLagRow(text string) (LagPoint, error) {
	fields := strings.Split(text, ",")
	if len(fields) != 3 {
		return LagPoint{}, fmt.Errorf("%d fields, want 3 (%s)", len(fields), lagHeader)
	}
	t, err := strconv.ParseInt(fields[0], 10, 64)
	if err != nil || t < 0 {
		return LagPoint{}, fmt.Errorf("t_ms %q: want whole milliseconds, 0 or more", fields[0])
	}
	rec, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil || rec < 0 {
		return LagPoint{}, fmt.Errorf("lag_rec %q: want a whole number of records, 0 or more", fields[1])
	}
	ms, err := strconv.ParseFloat(fields[2], 64)
	if err != nil || ms < 0 || math.IsInf(ms, 0) || math.IsNaN(ms) {
		return LagPoint{}, fmt.Errorf("lag_ms %q: want milliseconds, 0 or more", fields[2])
	}
	return LagPoint{TMs: t, Rec: rec, Ms: ms}, nil
}

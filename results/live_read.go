package results

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Live is a run's live cells as its live/ folder (LiveDir) holds them: per
// cell, the latency histogram of its repetitions merged and each
// repetition's lag series, as plain data. ReadLive reads it; Analyze keeps
// what the sweep counts (Analysis.Live), which the live figures draw.
type Live struct {
	// Cells are sorted by name.
	Cells []LiveCell
}

// LiveCell is one live cell's latency and lag, from the files of its
// repetitions.
type LiveCell struct {
	// Name is the cell name the files carry (LatencyFile.Cell).
	Name string
	// Reps are the repetitions whose histogram is merged, by rep number.
	Reps []LiveRep
	// Count is how many latencies the merged histogram holds: the
	// measured records of every repetition in Reps.
	Count int64
	// Percentiles is the merged histogram's percentile curve at
	// HdrHistogram's percentile ticks (percentileTicks per halving of the
	// distance to 100%: 0, 10, ..., 50, 55, ..., 75, 77.5, ...), ascending,
	// ending with the maximum at percentile 100.
	Percentiles []PercentilePoint
}

// LiveRep is one repetition of a live cell.
type LiveRep struct {
	Rep int
	// Rate is the repetition's target produce rate (records/s): the cell's
	// rate, or the highest rate a maxrate cell's search sustained.
	Rate int
	// Warmup is how many records the producer wrote before the measured
	// window; Count how many latencies the repetition's histogram holds.
	Warmup int
	Count  int64
	// Lag is the repetition's lag series in time order (warm-up included),
	// nil when it left no lag file.
	Lag []LagPoint

	// hist is the repetition's histogram, kept so that Analyze can merge
	// again when it drops a repetition the journal does not count.
	hist *hdrhistogram.Histogram
}

// PercentilePoint is one point of a latency percentile curve.
type PercentilePoint struct {
	// Percentile is 0..100; 100 is the maximum.
	Percentile float64
	// Ms is the latency at Percentile, in milliseconds.
	Ms float64
}

// percentileTicks is how many points a percentile curve has per halving
// of the distance to 100% (50%, 75%, 87.5%, ...): five, as HdrHistogram's
// own percentile output is usually printed, about a hundred points for a
// million latencies.
const percentileTicks = 5

// Cell returns the live cell named name, or nil.
func (l *Live) Cell(name string) *LiveCell {
	i := sort.Search(len(l.Cells), func(i int) bool { return l.Cells[i].Name >= name })
	if i < len(l.Cells) && l.Cells[i].Name == name {
		return &l.Cells[i]
	}
	return nil
}

// ReadLive reads the live/ folder of runDir: every latency histogram
// (*.hdr.json, ReadLatency) grouped by the cell it names, merged per cell,
// and beside each the repetition's lag series (LagPath). A run without a
// live folder has an empty Live. A file that cannot be read, a histogram
// whose cell and repetition are not its file name's (LatencyPath) and a
// malformed lag row are errors naming the file (and the line).
func ReadLive(runDir string) (*Live, error) {
	dir := filepath.Join(runDir, LiveDir)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return &Live{}, nil
	}
	if err != nil {
		return nil, fileError("read live folder", dir, 0, err)
	}
	byCell := make(map[string]*LiveCell)
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".hdr.json") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		f, h, err := ReadLatency(path)
		if err != nil {
			var fe *FileError
			if errors.As(err, &fe) && fe.Op == "" {
				fe.Op = "read latency histogram"
			}
			return nil, err
		}
		// Grouping is by the cell the file names; the file name must be
		// that cell's and repetition's, so no repetition counts twice.
		if f.Cell == "" {
			return nil, &FileError{Op: "read latency histogram", File: path, Err: errors.New("no cell name")}
		}
		if want := filepath.Base(LatencyPath(dir, f.Cell, f.Rep)); want != e.Name() {
			return nil, &FileError{Op: "read latency histogram", File: path,
				Err: fmt.Errorf("holds cell %s rep %d, whose file is %s", f.Cell, f.Rep, want)}
		}
		lag, err := readLag(LagPath(dir, f.Cell, f.Rep))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		c := byCell[f.Cell]
		if c == nil {
			c = &LiveCell{Name: f.Cell}
			byCell[f.Cell] = c
		}
		c.Reps = append(c.Reps, LiveRep{Rep: f.Rep, Rate: f.Rate, Warmup: f.Warmup, Count: f.Count, Lag: lag, hist: h})
	}
	l := &Live{Cells: make([]LiveCell, 0, len(byCell))}
	for _, c := range byCell {
		sort.Slice(c.Reps, func(i, j int) bool { return c.Reps[i].Rep < c.Reps[j].Rep })
		if err := c.merge(); err != nil {
			return nil, fmt.Errorf("merge the latency histograms of %s in %s: %w", c.Name, dir, err)
		}
		l.Cells = append(l.Cells, *c)
	}
	sort.Slice(l.Cells, func(i, j int) bool { return l.Cells[i].Name < l.Cells[j].Name })
	return l, nil
}

// merge sets c's Count and Percentiles from the histograms of its Reps,
// merged exactly (as MergeLatency merges files).
func (c *LiveCell) merge() error {
	m := NewLatencyHistogram()
	for _, r := range c.Reps {
		if r.hist == nil {
			return fmt.Errorf("rep %d has no histogram", r.Rep)
		}
		if dropped := m.Merge(r.hist); dropped > 0 {
			return fmt.Errorf("rep %d: %d latencies outside the histogram's range", r.Rep, dropped)
		}
	}
	c.Count = m.TotalCount()
	c.Percentiles = percentileCurve(m)
	return nil
}

// percentileCurve is h's percentile curve in milliseconds, nil for an
// empty histogram.
func percentileCurve(h *hdrhistogram.Histogram) []PercentilePoint {
	if h.TotalCount() == 0 {
		return nil
	}
	brackets := h.CumulativeDistributionWithTicks(percentileTicks)
	out := make([]PercentilePoint, 0, len(brackets))
	for _, b := range brackets {
		out = append(out, PercentilePoint{Percentile: b.Quantile, Ms: float64(b.ValueAt) / 1e3})
	}
	return out
}

package resultstest

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/fastpathlab/fplab/results"
)

// SweepRows is a seeded, hand-shaped run: three paths, one format, a batch
// sweep at brokers=3 alloc=go crc=off with checkpoints, plus allocator, CRC
// and broker variations at batch 8192, an A/A pair and one failed cell.
func SweepRows() []results.Row {
	rng := rand.New(rand.NewPCG(42, 7))
	base := map[string]float64{"rowwise": 0.6e6, "shallow": 1.2e6, "fast": 2.8e6}
	// A more native path pays more checkpoint latency per batch.
	native := map[string]float64{"rowwise": 0, "shallow": 1, "fast": 2}
	var rows []results.Row
	add := func(cell string, rate, p99, replay float64, reps int) {
		for rep := range reps {
			jit := 1 + (rng.Float64()-0.5)*0.08
			ms := []results.Metric{
				{Unit: "rec/s", Value: rate * jit},
				{Unit: "ns/rec", Value: 1e9 / (rate * jit)},
			}
			if p99 > 0 {
				ms = append(ms,
					results.Metric{Unit: "ckpt-p99-ms", Value: p99 * (1 + (rng.Float64()-0.5)*0.1)},
					results.Metric{Unit: "replay-rec", Value: replay * (1 + rng.Float64()*0.2)})
			}
			rows = append(rows, results.Row{Cell: cell, Rep: rep, OK: true, Metrics: ms,
				Start: T0, End: T0.Add(10 * time.Second), Measured: 8 * time.Second})
		}
	}
	for _, path := range []string{"rowwise", "shallow", "fast"} {
		for _, b := range []int{256, 1024, 8192, 65536} {
			f := float64(b)
			rate := base[path] * (1 - 0.5*256/f)
			p99 := 12 + f/400*(1+0.4*native[path])
			cell := fmt.Sprintf("path=%s/format=json/batch=%d/brokers=3/alloc=go/crc=off", path, b)
			add(cell, rate, p99, f*3, 3)
		}
		add(fmt.Sprintf("path=%s/format=json/batch=8192/brokers=3/alloc=mimalloc2/crc=off", path), base[path]*1.15, 0, 0, 3)
		add(fmt.Sprintf("path=%s/format=json/batch=8192/brokers=3/alloc=go/crc=on", path), base[path]*0.95, 0, 0, 3)
		if path != "rowwise" {
			add(fmt.Sprintf("path=%s/format=json/batch=8192/brokers=1/alloc=go/crc=off", path), base[path]*0.8, 0, 0, 3)
		}
	}
	add("path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off/aa=a", 9e9, 0, 0, 3)
	for rep := range 3 {
		rows = append(rows, results.Row{Cell: "path=rowwise/format=json/batch=8192/brokers=1/alloc=go/crc=off",
			Rep: rep, Reason: "timeout after 2m0s", Signal: "killed"})
	}
	return rows
}

// SmokeRows is shaped like a run of ladder/specs/smoke.yaml: the five cells
// of its covering expansion (every value of every axis at least once, no
// two cells alike on the other axes), one repetition each, checkpoints on,
// the A/A pair, and the franz cell timed out.
func SmokeRows() []results.Row {
	rng := rand.New(rand.NewPCG(5, 1))
	cells := []struct {
		cell string
		rate float64
	}{
		{"path=rowwise/format=json/batch=1024/brokers=1/alloc=go/crc=on/ckpt=20ms", 0.35e6},
		{"path=shallow/format=avro/batch=8192/brokers=3/alloc=mimalloc2/crc=off/ckpt=20ms", 0.9e6},
		{"path=fast/format=protobuf/batch=1024/brokers=1/alloc=mimalloc3/crc=on/ckpt=20ms", 1.6e6},
		{"path=franz/format=csv/batch=1024/brokers=1/alloc=go/crc=on/ckpt=20ms", 0},
		{"path=rowwise/format=raw/batch=1024/brokers=1/alloc=go/crc=on/ckpt=20ms", 1.1e6},
		{"path=fast/format=json/batch=1024/brokers=1/alloc=go/crc=on/ckpt=20ms/aa=a", 1.3e6},
		{"path=fast/format=json/batch=1024/brokers=1/alloc=go/crc=on/ckpt=20ms/aa=b", 1.3e6},
	}
	var rows []results.Row
	for _, c := range cells {
		if c.rate == 0 {
			rows = append(rows, results.Row{Cell: c.cell, Reason: "timeout after 30s", Signal: "killed", Start: T0, End: T0.Add(30 * time.Second)})
			continue
		}
		r := c.rate * (1 + (rng.Float64()-0.5)*0.06)
		rows = append(rows, results.Row{Cell: c.cell, OK: true, Start: T0, End: T0.Add(4 * time.Second), Measured: 3 * time.Second,
			Metrics: []results.Metric{{Unit: "rec/s", Value: r}, {Unit: "ns/rec", Value: 1e9 / r},
				{Unit: "ckpt-p99-ms", Value: 8 + rng.Float64()*4}, {Unit: "replay-rec", Value: 1024 * (1 + rng.Float64())}}})
	}
	return rows
}

// PathsRows is shaped like a run of ladder/specs/paths.yaml: four paths by
// two formats at one setting, six repetitions each (the fewest with a 95%
// interval), an A/A pair, and one repetition of shallow/json failed, which
// leaves that cell five and no interval.
func PathsRows() []results.Row {
	rng := rand.New(rand.NewPCG(6, 2))
	base := map[string]float64{"rowwise": 0.5e6, "shallow": 1.1e6, "fast": 2.6e6, "franz": 1.9e6}
	scale := map[string]float64{"raw": 3.2, "json": 1}
	var rows []results.Row
	add := func(cell string, rate float64, reps int) {
		for rep := range reps {
			if cell == "path=shallow/format=json/batch=8192/brokers=3/alloc=go/crc=off" && rep == 3 {
				rows = append(rows, results.Row{Cell: cell, Rep: rep, Reason: "assertion: fell back to per-record poll"})
				continue
			}
			r := rate * (1 + (rng.Float64()-0.5)*0.05)
			rows = append(rows, results.Row{Cell: cell, Rep: rep, OK: true, Start: T0, End: T0.Add(10 * time.Second), Measured: 8 * time.Second,
				Metrics: []results.Metric{{Unit: "rec/s", Value: r}, {Unit: "ns/rec", Value: 1e9 / r}}})
		}
	}
	for _, path := range []string{"rowwise", "shallow", "fast", "franz"} {
		for _, format := range []string{"raw", "json"} {
			add(fmt.Sprintf("path=%s/format=%s/batch=8192/brokers=3/alloc=go/crc=off", path, format), base[path]*scale[format], 6)
		}
	}
	add("path=fast/format=raw/batch=8192/brokers=3/alloc=go/crc=off/aa=a", 8.3e6, 6)
	add("path=fast/format=raw/batch=8192/brokers=3/alloc=go/crc=off/aa=b", 8.3e6, 6)
	return rows
}

// OneCellRows is the smallest run: one cell, three repetitions.
func OneCellRows() []results.Row {
	var rows []results.Row
	for rep, v := range []float64{2.1e6, 2.0e6, 2.2e6} {
		rows = append(rows, results.Row{Cell: "path=fast/format=json/batch=8192", Rep: rep, OK: true,
			Metrics: []results.Metric{{Unit: "rec/s", Value: v}}})
	}
	return rows
}

// GapRows is a small run (the one Manifest describes) with every kind of
// gap: a cell whose every repetition failed (signal and stderr tail), a
// cell with a failed repetition among good ones, a cell that never
// reported ckpt-p99-ms, a single-repetition cell, and an A/A pair.
func GapRows() []results.Row {
	var rows []results.Row
	cell := func(path string, batch int, alloc string) string {
		return fmt.Sprintf("path=%s/format=json/batch=%d/brokers=3/alloc=%s/crc=off", path, batch, alloc)
	}
	rate := map[string]float64{"shallow": 1.2e6, "fast": 2.8e6}
	for _, path := range []string{"shallow", "fast"} {
		for _, batch := range []int{1024, 8192, 65536} {
			c := cell(path, batch, "go")
			for rep := range 3 {
				r := rate[path] * (1 - 256/float64(batch)) * (1 + 0.01*float64(rep-1))
				p99 := 10 + float64(batch)/(300-100*float64(rep%2))
				switch {
				case path == "shallow" && batch == 1024:
					rows = append(rows, results.Row{Cell: c, Rep: rep, Reason: "timeout after 2m0s", Signal: "killed",
						StderrTail: "fplab rung: waiting for partition 3\n```\npanic: stuck", Start: T0, End: T0.Add(2 * time.Minute)})
				case path == "fast" && batch == 1024 && rep == 2:
					rows = append(rows, results.Row{Cell: c, Rep: rep, Reason: "assertion: fell back to per-record poll"})
				case path == "fast" && batch == 65536:
					rows = append(rows, OK(c, rep, Metric("rec/s", r), Metric("ns/rec", 1e9/r)))
				default:
					rows = append(rows, OK(c, rep, Metric("rec/s", r), Metric("ns/rec", 1e9/r),
						Metric("ckpt-p99-ms", p99), Metric("replay-rec", float64(batch)*2.5)))
				}
			}
		}
	}
	rows = append(rows, OK(cell("fast", 8192, "mimalloc2"), 0, Metric("rec/s", 3.1e6), Metric("ns/rec", 1e9/3.1e6)))
	for rep := range 3 {
		for i, side := range []string{"a", "b"} {
			v := 2.7e6 * (1 + 0.004*float64(rep) + 0.002*float64(i))
			rows = append(rows, OK(cell("fast", 8192, "go")+"/aa="+side, rep, Metric("rec/s", v), Metric("ns/rec", 1e9/v)))
		}
	}
	return rows
}

// TableRows is a seeded ladder run: path x batch x alloc over 6 reps, with
// one noisy cell, one cell short of reps and one failed row.
func TableRows() []results.Row {
	rng := rand.New(rand.NewPCG(1, 2))
	base := map[string]float64{"rowwise": 1.0e6, "fast": 4.0e6}
	batchGain := map[string]float64{"1024": 1.0, "8192": 1.12}
	allocGain := map[string]float64{"go": 1.0, "mimalloc2": 1.02}
	start := time.Date(2026, 12, 2, 10, 45, 0, 0, time.UTC)
	var rows []results.Row
	for _, path := range []string{"rowwise", "fast"} {
		for _, batch := range []string{"1024", "8192"} {
			for _, alloc := range []string{"go", "mimalloc2"} {
				cell := fmt.Sprintf("path=%s/format=json/batch=%s/brokers=3/alloc=%s/crc=off", path, batch, alloc)
				reps := 6
				if path == "rowwise" && batch == "8192" && alloc == "mimalloc2" {
					reps = 3 // too few for a confidence interval
				}
				noise := 0.01
				if path == "fast" && batch == "1024" && alloc == "mimalloc2" {
					noise = 0.12 // a noisy cell
				}
				for rep := 0; rep < reps; rep++ {
					rate := base[path] * batchGain[batch] * allocGain[alloc] * (1 + noise*(rng.Float64()-0.5)*2)
					rows = append(rows, results.Row{
						Cell: cell, Rep: rep, OK: true,
						Metrics: []results.Metric{
							{Unit: "rec/s", Value: round4(rate)},
							{Unit: "ns/rec", Value: round4(1e9 / rate)},
							{Unit: "B/rec", Value: round4(0.5 + 0.01*rng.Float64())},
						},
						Config: map[string]string{"goos": "linux", "goarch": "amd64", "alloc-version": alloc + "-v1"},
						Iters:  2000000,
						Start:  start, End: start.Add(2 * time.Second), Measured: time.Second,
					})
				}
			}
		}
	}
	rows = append(rows, results.Row{Cell: "path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off", Rep: 6, Reason: "timeout after 60s", Signal: "killed", StderrTail: "fetch stalled"})
	return rows
}

// CompareRows are two seeded runs of eight repetitions a cell, for
// results.Compare: against old, new has a tight 10% rec/s drop
// (path=fast/batch=1024: a regression), a noisy cell with no real change
// (fast/8192), a tight 10% improvement (rowwise/1024), a tight 2% drop
// under the 5% threshold (rowwise/8192), a cell old lacks (fast/65536) and
// lacks one old has (shallow/1024). A repetition's value is center * (1 +
// spread*u), u uniform in [-1, 1], kept to four significant digits so
// golden files stay readable.
func CompareRows() (old, new []results.Row) {
	// Each cell's spread and its centers of rec/s, ns/rec and window-ms
	// in old and in new (nil: that run lacks the cell).
	cells := []struct {
		cell     string
		spread   float64
		old, new []float64
	}{
		{"path=fast/batch=1024", 0.005, []float64{4e6, 250, 500}, []float64{3.6e6, 277.8, 556}},
		{"path=fast/batch=8192", 0.08, []float64{4.5e6, 222, 450}, []float64{4.5e6, 222, 450}},
		{"path=fast/batch=65536", 0, nil, []float64{4.6e6, 217, 440}},
		{"path=rowwise/batch=1024", 0.005, []float64{1e6, 1000, 2000}, []float64{1.1e6, 909, 1800}},
		{"path=rowwise/batch=8192", 0.002, []float64{1.1e6, 909, 1800}, []float64{1.078e6, 927.6, 1836}},
		{"path=shallow/batch=1024", 0, []float64{2e6, 500, 1000}, nil},
	}
	oldRNG, newRNG := rand.New(rand.NewPCG(1, 7)), rand.New(rand.NewPCG(2, 7))
	for _, c := range cells {
		old = append(old, spreadRows(oldRNG, c.cell, c.spread, c.old)...)
		new = append(new, spreadRows(newRNG, c.cell, c.spread, c.new)...)
	}
	return old, new
}

// spreadRows makes eight repetitions of cell around centers (rec/s, ns/rec
// and window-ms), or none when centers is nil.
func spreadRows(rng *rand.Rand, cell string, spread float64, centers []float64) []results.Row {
	if centers == nil {
		return nil
	}
	units := []string{"rec/s", "ns/rec", "window-ms"}
	var rows []results.Row
	for rep := range 8 {
		var ms []results.Metric
		for i, center := range centers {
			v := center * (1 + spread*(2*rng.Float64()-1))
			ms = append(ms, results.Metric{Unit: units[i], Value: round4(v)})
		}
		rows = append(rows, results.Row{Cell: cell, Rep: rep, OK: true, Metrics: ms})
	}
	return rows
}

// round4 keeps four significant digits so golden files stay readable.
func round4(v float64) float64 {
	var r float64
	fmt.Sscanf(fmt.Sprintf("%.4g", v), "%g", &r)
	return r
}

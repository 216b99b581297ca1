package plots

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/fastpathlab/fplab/results"
)

// fixtureRows is a seeded, hand-shaped run: three paths, one format, a
// batch sweep at brokers=3 alloc=go crc=off with checkpoints, plus allocator,
// CRC and broker variations at batch 8192, an A/A pair and one failed cell.
func fixtureRows() []results.Row {
	rng := rand.New(rand.NewPCG(42, 7))
	base := map[string]float64{"rowwise": 0.6e6, "shallow": 1.2e6, "fast": 2.8e6}
	var rows []results.Row
	t0 := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
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
				Start: t0, End: t0.Add(10 * time.Second), Measured: 8 * time.Second})
		}
	}
	for _, path := range []string{"rowwise", "shallow", "fast"} {
		for _, b := range []int{256, 1024, 8192, 65536} {
			f := float64(b)
			rate := base[path] * (1 - 0.5*256/f)
			p99 := 12 + f/400*(1+0.4*float64(pathOrder[path]))
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

// smokeRows is shaped like a run of ladder/specs/smoke.yaml: the five cells
// of its covering expansion (every value of every axis at least once, no
// two cells alike on the other axes), one repetition each, checkpoints on,
// the A/A pair, and the franz cell timed out.
func smokeRows() []results.Row {
	rng := rand.New(rand.NewPCG(5, 1))
	t0 := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
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
			rows = append(rows, results.Row{Cell: c.cell, Reason: "timeout after 30s", Signal: "killed", Start: t0, End: t0.Add(30 * time.Second)})
			continue
		}
		r := c.rate * (1 + (rng.Float64()-0.5)*0.06)
		rows = append(rows, results.Row{Cell: c.cell, OK: true, Start: t0, End: t0.Add(4 * time.Second), Measured: 3 * time.Second,
			Metrics: []results.Metric{{Unit: "rec/s", Value: r}, {Unit: "ns/rec", Value: 1e9 / r},
				{Unit: "ckpt-p99-ms", Value: 8 + rng.Float64()*4}, {Unit: "replay-rec", Value: 1024 * (1 + rng.Float64())}}})
	}
	return rows
}

// pathsRows is shaped like a run of ladder/specs/paths.yaml: four paths by
// two formats at one setting, six repetitions each (the fewest with a 95%
// interval), an A/A pair, and one repetition of shallow/json failed, which
// leaves that cell five and no interval.
func pathsRows() []results.Row {
	rng := rand.New(rand.NewPCG(6, 2))
	t0 := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
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
			rows = append(rows, results.Row{Cell: cell, Rep: rep, OK: true, Start: t0, End: t0.Add(10 * time.Second), Measured: 8 * time.Second,
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

// oneCellRows is the smallest run: one cell, three repetitions.
func oneCellRows() []results.Row {
	var rows []results.Row
	for rep, v := range []float64{2.1e6, 2.0e6, 2.2e6} {
		rows = append(rows, results.Row{Cell: "path=fast/format=json/batch=8192", Rep: rep, OK: true,
			Metrics: []results.Metric{{Unit: "rec/s", Value: v}}})
	}
	return rows
}

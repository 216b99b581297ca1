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

package results

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// fixtureRows is a seeded ladder run: path x batch x alloc over 6 reps,
// with one noisy cell, one cell short of reps and one failed row.
func fixtureRows() []Row {
	rng := rand.New(rand.NewPCG(1, 2))
	base := map[string]float64{"rowwise": 1.0e6, "fast": 4.0e6}
	batchGain := map[string]float64{"1024": 1.0, "8192": 1.12}
	allocGain := map[string]float64{"go": 1.0, "mimalloc2": 1.02}
	start := time.Date(2026, 12, 2, 10, 45, 0, 0, time.UTC)
	var rows []Row
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
					rows = append(rows, Row{
						Cell: cell, Rep: rep, OK: true,
						Metrics: []Metric{
							{"rec/s", round4(rate)},
							{"ns/rec", round4(1e9 / rate)},
							{"B/rec", round4(0.5 + 0.01*rng.Float64())},
						},
						Config: map[string]string{"goos": "linux", "goarch": "amd64", "alloc-version": alloc + "-v1"},
						Iters:  2000000,
						Start:  start, End: start.Add(2 * time.Second), Measured: time.Second,
					})
				}
			}
		}
	}
	rows = append(rows, Row{Cell: "path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off", Rep: 6, Reason: "timeout after 60s", Signal: "killed", StderrTail: "fetch stalled"})
	return rows
}

// round4 keeps four significant digits so golden files stay readable.
func round4(v float64) float64 {
	var r float64
	fmt.Sscanf(fmt.Sprintf("%.4g", v), "%g", &r)
	return r
}

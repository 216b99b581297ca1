package stock

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fastpathlab/fplab/workloads"
)

// How Best measures: rounds passes over every candidate, the order
// reversed each round so that none always runs first, each on a corpus of
// pickRecords records for at least pickMinTime. About a second in all for
// three candidates, before a cell's window.
const (
	pickRounds  = 3
	pickRecords = 2 * BatchRows
	pickMinTime = 60 * time.Millisecond
)

// A Pick is the stock route a consume path runs for decoder=stock, chosen
// by measuring every per-message stock route of the format on this host.
type Pick struct {
	Route Route
	// Candidates are the per-message routes measured, fastest first: each
	// one's NsPerRec and RecPerSec are its median over the rounds, its
	// other figures the last round's.
	Candidates []Result
}

// String lists the candidates with their median ns per record, fastest
// (the pick) first: "sonic 101ns goccy 190ns encoding-json 640ns".
func (p Pick) String() string {
	var parts []string
	for _, r := range p.Candidates {
		parts = append(parts, fmt.Sprintf("%s %.0fns", r.Lib, r.NsPerRec))
	}
	return strings.Join(parts, " ")
}

var (
	picksMu sync.Mutex
	picks   = map[string]Pick{} // by format/schema: one measurement per process
)

// Best is the fastest per-message stock route of format f for records of
// schema (a workloads schema name), measured, not assumed: every candidate
// decodes the same verified corpus (Measure) in alternating rounds and the
// lowest median ns per record wins. A process measures each format and
// schema once; later calls return the same pick. Batch routes (arrow-go's
// readers) cannot decode one message at a time, so a consume path cannot
// run them; csv's only stock route is one, and raw has nothing to decode.
func Best(ctx context.Context, f workloads.Format, schema string) (Pick, error) {
	key := string(f) + "/" + schema
	picksMu.Lock()
	defer picksMu.Unlock()
	if p, ok := picks[key]; ok {
		return p, nil
	}
	var libs []string
	for _, r := range Routes(f) {
		if r.Lib != Lab && !r.Batch {
			libs = append(libs, r.Lib)
		}
	}
	if len(libs) == 0 {
		return Pick{}, fmt.Errorf("stock: format %s has no per-message stock route for a consume path (json, avro and protobuf have)", f)
	}
	ns := map[string][]float64{}
	var last map[string]Result
	for round := range pickRounds {
		order := slices.Clone(libs)
		if round%2 == 1 {
			slices.Reverse(order)
		}
		res, err := Measure(ctx, Options{
			Formats: []workloads.Format{f}, Libs: order, Schema: schema,
			Records: pickRecords, Seed: uint64(round + 1), MinTime: pickMinTime,
			Mem: MemPool, // as the paths build their batches
		})
		if err != nil {
			return Pick{}, fmt.Errorf("stock: measuring the %s routes: %w", f, err)
		}
		last = map[string]Result{}
		for _, r := range res {
			ns[r.Lib] = append(ns[r.Lib], r.NsPerRec)
			last[r.Lib] = r
		}
	}
	var p Pick
	for _, lib := range libs {
		r := last[lib]
		r.NsPerRec = median(ns[lib])
		r.RecPerSec = 1e9 / r.NsPerRec
		p.Candidates = append(p.Candidates, r)
	}
	sort.SliceStable(p.Candidates, func(i, j int) bool { return p.Candidates[i].NsPerRec < p.Candidates[j].NsPerRec })
	route, err := Lookup(f, p.Candidates[0].Lib)
	if err != nil {
		return Pick{}, err
	}
	p.Route = route
	picks[key] = p
	return p, nil
}

// Picked is the pick Best made in this process for format f and schema,
// if it made one: what a consume path that ran decoder=stock decoded with.
func Picked(f workloads.Format, schema string) (Pick, bool) {
	picksMu.Lock()
	defer picksMu.Unlock()
	p, ok := picks[string(f)+"/"+schema]
	return p, ok
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

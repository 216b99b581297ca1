package results

import (
	"slices"
	"strings"

	"github.com/fastpathlab/fplab/cell"
)

// Derived units: a path's throughput as a share of a reference measured in
// the same run, per repetition, in percent.
//
//   - UnitPctCeiling: rec/s over the median rec/s of the serving ceiling
//     (path=ceiling) on the same topic: the cell with the same format,
//     brokers, cluster and topic shape (every axis but path, batch, alloc,
//     crc and decoder, which the ceiling does not have or ignore); all such
//     ceiling cells' repetitions pooled.
//   - UnitPctTwin: rec/s over the median rec/s of the cell's consume-only
//     twin (the same cell with decoder=none): how much of the client's
//     speed survives decoding and verification.
//   - UnitPctTwinExVerify: the same with the rung's own checks taken out
//     of the path's time: records over (window - verification), from a
//     repetition's ns/rec and verify-ns/rec, over the twin's median rec/s:
//     how much survives building the Arrow batch alone. The twin's rate is
//     taken as it is (its checks are positions only, near 0 ns/rec).
//   - UnitPctTwinHostBound: a repetition's host-bound-rec/s (the rate at
//     which the cell would keep every CPU of the host busy at the machine
//     CPU it spent per record) over the twin's median rec/s: the most of
//     its twin's rate the cell could keep on this host without spending
//     less CPU per record, whatever idle time it left. Descriptive
//     (neutral): it bounds a share, it does not measure one.
//
// A cell without its reference in the run gets no derived value, nor does
// the ceiling itself; the other references (java, flink, ...) get their
// share of the ceiling.
const (
	UnitPctCeiling = "pct-of-ceiling"
	UnitPctTwin    = "pct-of-twin"

	UnitPctTwinExVerify  = "pct-of-twin-ex-verify"
	UnitPctTwinHostBound = "pct-of-twin-host-bound"
)

// ceilingIgnores are the axes the ceiling has no use for: it counts what
// the broker serves whatever the batch size, allocator, CRC check or
// decoder of the path it is set beside.
var ceilingIgnores = []string{cell.Path, cell.Batch, cell.Alloc, cell.CRC, cell.Decoder}

// deriveShares adds the UnitPctCeiling and UnitPctTwin observations of the
// rec/s observations that have their reference in ds.
func (ds *dataset) deriveShares() {
	obs := ds.byUnit[UnitRecPerSec]
	if len(obs) == 0 {
		return
	}
	ceil := map[string][]float64{}
	twin := map[string][]float64{}
	for _, o := range obs {
		switch {
		case o.parts[cell.Path] == cell.PathCeiling:
			k := shareKey(o.parts, ceilingIgnores...)
			ceil[k] = append(ceil[k], o.value)
		case o.parts[cell.Decoder] == cell.DecoderNone:
			k := shareKey(o.parts, cell.Decoder)
			twin[k] = append(twin[k], o.value)
		}
	}
	ceilMedian, twinMedian := medians(ceil), medians(twin)
	add := func(unit string, o observation, m float64) {
		if m <= 0 { // no reference in the run (or a zero one)
			return
		}
		if _, ok := ds.byUnit[unit]; !ok {
			ds.units = append(ds.units, unit)
		}
		ds.byUnit[unit] = append(ds.byUnit[unit], observation{o.cell, o.parts, 100 * o.value / m})
	}
	for _, o := range obs {
		if o.parts[cell.Path] == cell.PathCeiling {
			continue
		}
		add(UnitPctCeiling, o, ceilMedian[shareKey(o.parts, ceilingIgnores...)])
		if o.parts[cell.Decoder] != cell.DecoderNone {
			add(UnitPctTwin, o, twinMedian[shareKey(o.parts, cell.Decoder)])
		}
	}
	for _, o := range ds.exVerify {
		if o.parts[cell.Decoder] != cell.DecoderNone {
			add(UnitPctTwinExVerify, o, twinMedian[shareKey(o.parts, cell.Decoder)])
		}
	}
	for _, o := range ds.byUnit[UnitHostBoundRecPerSec] {
		if o.parts[cell.Decoder] != cell.DecoderNone && o.parts[cell.Path] != cell.PathCeiling {
			add(UnitPctTwinHostBound, o, twinMedian[shareKey(o.parts, cell.Decoder)])
		}
	}
}

// exVerifyRate is a repetition's records per second with the rung's checks
// taken out of its window, from its ns/rec and verify-ns/rec; false when
// it lacks either (a reference, a checkpoint cell) or they make no rate.
func exVerifyRate(ms []Metric) (float64, bool) {
	ns, verify := -1.0, -1.0
	for _, m := range ms {
		switch m.Unit {
		case UnitNsPerRec:
			ns = m.Value
		case UnitVerifyNsPerRec:
			verify = m.Value
		}
	}
	if ns <= 0 || verify < 0 || verify >= ns {
		return 0, false
	}
	return 1e9 / (ns - verify), true
}

// medians summarises each key's pooled reference values once.
func medians(byKey map[string][]float64) map[string]float64 {
	m := make(map[string]float64, len(byKey))
	for k, vs := range byKey {
		m[k] = Summarize(vs).Center
	}
	return m
}

// shareKey is a cell's parts without the ignored keys, as one string.
func shareKey(parts map[string]string, ignore ...string) string {
	keys := make([]string, 0, len(parts))
	for k, v := range parts {
		if v == "" || slices.Contains(ignore, k) || (k == cell.Decoder && v == cell.DecoderLab) {
			continue
		}
		keys = append(keys, k+"="+v)
	}
	slices.Sort(keys)
	return strings.Join(keys, "/")
}

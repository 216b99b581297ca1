package ladder

import (
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rungargs"
)

// maxRateOnlySpec is a spec of maxrate cells only; the line of every field
// is pinned by TestMaxRateSpecErrors. Its search runs at most
// MaxRateTrials(10000, 80000) = 9 trials of 1.12s + 5s + 10s = 16.12s.
const maxRateOnlySpec = `name: m
path: [fast]
format: [json]
batch: [8192]
brokers: [1]
alloc: [go]
crc: [off]
mode: [maxrate]
linger: [10ms]
max_rate: {p99: 100ms, from: 10000, to: 80000}
duration: 2s
live_warmup: 1s
repetitions: 2
timeout: 3m
seed: 7
`

// allModesSpec has bounded, live and maxrate cells: 2 paths x 2 batches =
// 4 combinations, each bounded once per checkpoint value (2), live once
// per rate x linger (2 x 3) and maxrate once per linger (3).
const allModesSpec = `name: modes
path: [shallow, fast]
format: [json]
batch: [1024, 8192]
brokers: [1]
alloc: [go]
crc: [off]
mode: [bounded, live, maxrate]
rate: [1000, 5000]
linger: [1ms, 10ms, 100ms]
max_rate: {p99: 100ms, from: 1000, to: 8000}
duration: 2s
live_warmup: 1s
records: 1000
repetitions: 2
warmup: 1
timeout: 3m
seed: 7
checkpoint: [off, 1s]
failures: 1
`

func TestParseMaxRateSpec(t *testing.T) {
	s := mustSpec(t, maxRateOnlySpec)
	if m := s.MaxRate; m == nil || *m != (MaxRateSpec{P99: 100 * time.Millisecond, From: 10000, To: 80000}) {
		t.Fatalf("max_rate = %+v", m)
	}
	if len(s.Rate) != 0 || s.Records != 0 || s.Duration != 2*time.Second || s.LiveWarmup != time.Second {
		t.Errorf("parsed: %+v", s)
	}
	// A maxrate spec that names no linger and no warm-up gets the live
	// defaults; from and to may be written with underscores.
	s = mustSpec(t, edit(maxRateOnlySpec, "linger", "", "live_warmup", "", "max_rate", "max_rate: {to: 80_000, from: 10_000, p99: 0.1s}"))
	if !slices.Equal(s.Linger, []time.Duration{defaultLinger}) || s.LiveWarmup != defaultLiveWarmup || *s.MaxRate != (MaxRateSpec{P99: 100 * time.Millisecond, From: 10000, To: 80000}) {
		t.Errorf("defaults: linger %v live_warmup %v max_rate %+v", s.Linger, s.LiveWarmup, s.MaxRate)
	}
	// One cell per linger, no rate, no checkpoint; the name says
	// mode=maxrate and the linger and parses back.
	s = mustSpec(t, edit(maxRateOnlySpec, "linger", "linger: [1ms, 10ms]", "seed", "seed: 7\ncheckpoint: off"))
	cells, err := Expand(s)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cells {
		if !c.MaxRate() || !c.Live() || c.Rate != 0 || c.Ckpt != 0 {
			t.Errorf("cell %s: maxrate %v rate %d ckpt %v", c.Name(), c.MaxRate(), c.Rate, c.Ckpt)
		}
		back, err := cell.Parse(c.Name())
		if err != nil || back.Name() != c.Name() {
			t.Errorf("cell %s parses back as %s, %v", c.Name(), back.Name(), err)
		}
		names = append(names, c.Name())
	}
	want := []string{
		"path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/mode=maxrate/linger=1ms",
		"path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/mode=maxrate/linger=10ms",
	}
	if !slices.Equal(names, want) {
		t.Errorf("cells %v, want %v", names, want)
	}
	if n := productSize(s); n != len(product(s)) || n != 2 {
		t.Errorf("productSize = %d, product builds %d, want 2", n, len(product(s)))
	}
}

// TestExpandAllModes: in a spec of every mode, bounded cells take every
// checkpoint value, live cells every rate x linger and maxrate cells every
// linger and no rate; productSize counts exactly what product builds.
func TestExpandAllModes(t *testing.T) {
	s := mustSpec(t, allModesSpec)
	cells, err := Expand(s)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	lingers := map[time.Duration]bool{}
	for _, c := range cells {
		count[c.Value(cell.Mode)]++
		if c.MaxRate() {
			lingers[c.Linger] = true
			if c.Rate != 0 || c.Ckpt != 0 || strings.Contains(c.Name(), "rate=") {
				t.Errorf("maxrate cell %s has a rate or a checkpoint", c.Name())
			}
		}
	}
	if count[cell.ModeBounded] != 4*2 || count[cell.ModeLive] != 4*2*3 || count[cell.ModeMaxRate] != 4*3 || len(lingers) != 3 {
		t.Errorf("cells by mode %v over %d maxrate lingers, want 8 bounded, 24 live, 12 maxrate over 3", count, len(lingers))
	}
	if n := productSize(s); n != len(product(s)) || n != 44 {
		t.Errorf("productSize = %d, product builds %d, want 44", n, len(product(s)))
	}
	for _, src := range []string{
		maxRateOnlySpec,
		edit(allModesSpec, "mode", "mode: [maxrate, bounded]", "rate", ""),
		edit(allModesSpec, "mode", "mode: [live, maxrate]", "records", "", "checkpoint", "", "failures", ""),
		edit(allModesSpec, "seed", "seed: 7\nprofile: [off, on]"),
	} {
		s := mustSpec(t, src)
		if n := productSize(s); n != len(product(s)) {
			t.Errorf("productSize = %d, product builds %d for\n%s", n, len(product(s)), src)
		}
	}
	// mode selects maxrate cells in exclusions and calibration.
	s = mustSpec(t, allModesSpec+"exclude:\n  - {mode: maxrate, linger: 1ms}\ncalibrate: {mode: maxrate, batch: 1024}\n")
	cells, err = Expand(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 44-4 {
		t.Errorf("%d cells, want 40", len(cells))
	}
	sch, err := NewSchedule(s)
	if err != nil || !sch.Calibration.MaxRate() || sch.Calibration.Batch != 1024 {
		t.Errorf("calibration %s: %v", sch.Calibration.Name(), err)
	}
}

// TestMaxRateSpecErrors pins the one-line error of every maxrate setting
// the lab refuses.
func TestMaxRateSpecErrors(t *testing.T) {
	const clean = "a live or maxrate cell writes the clean topic (no transactions, tombstones or parity case)"
	const cellName = "path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off"
	cases := []struct{ name, src, want string }{
		// max_rate exactly with maxrate cells.
		{"no max_rate", edit(maxRateOnlySpec, "max_rate", ""),
			`m.yaml:1: max_rate: missing (a maxrate spec needs max_rate: {p99: 100ms, from: 10000, to: 2000000})`},
		{"max_rate on a live spec", edit(maxRateOnlySpec, "mode", "mode: [live]", "seed", "seed: 7\nrate: 1000"),
			`m.yaml:10: max_rate: max_rate is for maxrate cells; add maxrate to mode`},
		{"max_rate on a bounded spec", validSpec + "max_rate: {p99: 100ms, from: 10000, to: 80000}\n",
			`m.yaml:12: max_rate: max_rate is for maxrate cells; add maxrate to mode`},
		// Its syntax.
		{"max_rate not a mapping", edit(maxRateOnlySpec, "max_rate", "max_rate: 100ms"),
			`m.yaml:10: max_rate: want a mapping like {p99: 100ms, from: 10000, to: 2000000}, got "100ms"`},
		{"max_rate without to", edit(maxRateOnlySpec, "max_rate", "max_rate: {p99: 100ms, from: 10000}"),
			`m.yaml:10: max_rate.to: missing (max_rate needs p99, from and to, e.g. {p99: 100ms, from: 10000, to: 2000000})`},
		{"max_rate unknown key", edit(maxRateOnlySpec, "max_rate", "max_rate: {p99: 100ms, from: 10000, to: 80000, step: 2}"),
			`m.yaml:10: max_rate: unknown key "step" (want p99, from, to)`},
		{"max_rate key twice", edit(maxRateOnlySpec, "max_rate", "max_rate: {p99: 100ms, p99: 1s, from: 10000, to: 80000}"),
			`m.yaml:10: max_rate.p99: key given twice`},
		{"from zero", edit(maxRateOnlySpec, "max_rate", "max_rate: {p99: 100ms, from: 0, to: 80000}"),
			`m.yaml:10: max_rate.from: want a positive integer, got "0"`},
		{"p99 not a duration", edit(maxRateOnlySpec, "max_rate", "max_rate:\n  p99: soon\n  from: 10000\n  to: 80000"),
			`m.yaml:11: max_rate.p99: want a positive duration like 90s, got "soon"`},
		// Its bounds, at the line of the key.
		{"to not above from", edit(maxRateOnlySpec, "max_rate", "max_rate:\n  p99: 100ms\n  from: 10000\n  to: 10000"),
			`m.yaml:13: max_rate.to: 10000 is not above max_rate.from (10000): the search needs a range to double and bisect in`},
		{"to past the producer", edit(maxRateOnlySpec, "max_rate", "max_rate: {p99: 100ms, from: 10000, to: 20_000_000}"),
			`m.yaml:10: max_rate.to: 20000000 is over the bound of 10000000 (a rate no host could produce, clusters.MaxPacedRate)`},
		{"p99 below a millisecond", edit(maxRateOnlySpec, "max_rate", "max_rate: {p99: 500us, from: 10000, to: 80000}"),
			`m.yaml:10: max_rate.p99: 500µs is out of 1ms..1h (under a millisecond no read through a broker keeps it; past an hour it bounds nothing a trial shows)`},
		{"p99 past an hour", edit(maxRateOnlySpec, "max_rate", "max_rate: {p99: 2h, from: 10000, to: 80000}"),
			`m.yaml:10: max_rate.p99: 2h0m0s is out of 1ms..1h (under a millisecond no read through a broker keeps it; past an hour it bounds nothing a trial shows)`},
		{"from writes no record", edit(maxRateOnlySpec, "max_rate", "max_rate: {p99: 100ms, from: 1, to: 80000}", "live_warmup", "live_warmup: 0s", "duration", "duration: 500ms"),
			`m.yaml:10: max_rate.from: 1 records/s over live_warmup + duration (500ms) writes no record`},
		{"too many records", edit(maxRateOnlySpec, "max_rate", "max_rate: {p99: 100ms, from: 10000, to: 10_000_000}", "duration", "duration: 5s", "timeout", "timeout: 1h"),
			`m.yaml:10: max_rate.to: 10000000 records/s over live_warmup + duration (6s) is 60000000 records, over the bound of 50000000 (the largest trial's producer and an embedded broker hold them all in memory, ladder/limits.go)`},
		{"scaled records", edit(maxRateOnlySpec, "seed", "seed: 7\nsize: [100, 16384]"),
			`m.yaml:16: size: 16384-byte records x 240000 records (a maxrate cell's largest trial, at rate 80000 over 3s) is over the lab's 2 GiB bound on a scaled corpus (lower max_rate.to or duration)`},
		{"timeout under the search", edit(maxRateOnlySpec, "timeout", "timeout: 2m"),
			`m.yaml:14: timeout: 2m0s does not exceed the maxrate search's estimate of 2m25.08s: up to 9 trials (from 10000 to 80000 records/s) of 16.12s each (the producer's lead of 1.12s at rate 80000, the trial's read-by of 5s, 10s of start-up margin); give more than 2m25.08s`},
		// The live settings of a maxrate spec.
		{"rate on a maxrate spec", edit(maxRateOnlySpec, "seed", "seed: 7\nrate: 1000"),
			`m.yaml:16: rate: rate is a live cell's; a maxrate cell searches for its rate`},
		{"live and maxrate without rate", edit(maxRateOnlySpec, "mode", "mode: [live, maxrate]"),
			`m.yaml:1: rate: missing (a live spec needs a target rate in records/s; rate has no default)`},
		{"no duration", edit(maxRateOnlySpec, "duration", ""),
			`m.yaml:1: duration: missing (a live spec needs its cells' measured window, e.g. 10s)`},
		{"duration shorter than the warm-up", edit(maxRateOnlySpec, "duration", "duration: 500ms"),
			`m.yaml:11: duration: 500ms is a duration shorter than the warm-up (live_warmup: 1s)`},
		{"linger past source's bound", edit(maxRateOnlySpec, "linger", "linger: 11s"),
			`m.yaml:9: linger: 11s is over the bound of 10s (source's maxLinger: past it a linger is a batch interval)`},
		{"records in a maxrate-only spec", edit(maxRateOnlySpec, "seed", "seed: 7\nrecords: 1000"),
			`m.yaml:16: records: a spec of live cells only has no corpus (each live cell writes rate x (live_warmup + duration) records); drop records or add bounded to mode`},
		{"checkpoint in a maxrate-only spec", edit(maxRateOnlySpec, "seed", "seed: 7\ncheckpoint: 1s"),
			`m.yaml:16: checkpoint: applies to bounded cells, and this spec has live cells only (a live cell does not checkpoint)`},
		// Cells no child can run.
		{"maxrate rowwise", edit(maxRateOnlySpec, "path", "path: [fast, rowwise]"),
			`m.yaml:2: path: path rowwise cannot read live (a row path has no linger rule; its batches are handed over only when full), but cell path=rowwise/format=json/batch=8192/brokers=1/alloc=go/crc=off/mode=maxrate/linger=10ms does; exclude it (- {path: rowwise, mode: maxrate})`},
		{"maxrate flink", edit(maxRateOnlySpec, "path", "path: [flink]"),
			`m.yaml:2: path: path flink cannot read live (a max-rate search runs its trials through a Go reader only; for the JVM references each trial would be a JVM (and a Flink MiniCluster) started anew, which is not built), but cell path=flink/format=json/batch=8192/brokers=1/alloc=go/crc=off/mode=maxrate/linger=10ms does; exclude it (- {path: flink, mode: maxrate})`},
		{"maxrate transactions", edit(maxRateOnlySpec, "seed", "seed: 7\ntxn: [off, aborts]"),
			`m.yaml:16: txn: ` + clean + `, but cell ` + cellName + `/txn=aborts/mode=maxrate/linger=10ms has txn=aborts; exclude it (- {mode: maxrate, txn: aborts})`},
		{"maxrate tombstones", edit(maxRateOnlySpec, "seed", "seed: 7\nnulls: [0.1]"),
			`m.yaml:16: nulls: ` + clean + `, but cell ` + cellName + `/nulls=0.1/mode=maxrate/linger=10ms has nulls=0.1; exclude it (- {mode: maxrate, nulls: "!0"})`},
		{"maxrate parity case", edit(maxRateOnlySpec, "seed", "seed: 7\ncase: [empty-partition]"),
			`m.yaml:16: case: ` + clean + `, but cell ` + cellName + `/case=empty-partition/mode=maxrate/linger=10ms has case=empty-partition; exclude it (- {mode: maxrate, case: "!none"})`},
		{"maxrate broker kill", edit(maxRateOnlySpec, "brokers", "brokers: [3]", "seed", "seed: 7\ncluster: [kafka]\nbroker_kill: {path: fast}"),
			`m.yaml:17: broker_kill: selects path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off/cluster=kafka/mode=maxrate/linger=10ms/fault=kill, but a live or maxrate cell cannot lose a broker mid-cell (yet); add mode: bounded to broker_kill`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseSpec("m.yaml", []byte(c.src))
			if err == nil {
				t.Fatalf("no error for:\n%s", c.src)
			}
			if err.Error() != c.want {
				t.Errorf("error\n got: %s\nwant: %s\nspec:\n%s", err, c.want, c.src)
			}
			var se *SpecError
			if !errors.As(err, &se) || se.File != "m.yaml" || !strings.HasPrefix(c.want, se.Pos()+": ") {
				t.Errorf("error %v is not a *SpecError at the position it names (%+v)", err, se)
			}
		})
	}
	// Excluded, the cells that cannot run are no refusal.
	mustSpec(t, edit(maxRateOnlySpec, "path", "path: [fast, rowwise]", "seed", "seed: 7\nexclude: [{mode: maxrate, path: rowwise}]"))
	// The smallest timeout the search allows is just over its estimate.
	mustSpec(t, edit(maxRateOnlySpec, "timeout", "timeout: 2m25.081s"))
}

// TestMaxRateSpecErrorsInCode: a spec built in code or read from a
// manifest (no parser) is held to the same bounds.
func TestMaxRateSpecErrorsInCode(t *testing.T) {
	base := func() *Spec {
		return &Spec{Path: []string{"fast"}, Format: []string{"json"}, Batch: []int{8192}, Brokers: []int{1}, Alloc: []string{"go"},
			CRC: []string{"off"}, Mode: []string{"maxrate"}, Linger: []time.Duration{10 * time.Millisecond},
			MaxRate:  &MaxRateSpec{P99: 100 * time.Millisecond, From: 10000, To: 80000},
			Duration: 2 * time.Second, LiveWarmup: time.Second, Repetitions: 1, Timeout: 3 * time.Minute, Partitions: 6, Schema: "bid"}
	}
	if err := checkSpec(base()); err != nil {
		t.Fatalf("a valid maxrate spec: %v", err)
	}
	for _, c := range []struct {
		edit func(*Spec)
		want string
	}{
		{func(s *Spec) { s.MaxRate = nil }, "max_rate: missing (a maxrate spec needs max_rate: {p99: 100ms, from: 10000, to: 2000000})"},
		{func(s *Spec) { s.MaxRate.From = 0 }, "max_rate.from: 0 is not positive"},
		{func(s *Spec) { s.MaxRate.To = 5000 }, "max_rate.to: 5000 is not above max_rate.from (10000): the search needs a range to double and bisect in"},
		{func(s *Spec) { s.MaxRate.P99 = 0 }, "max_rate.p99: 0s is out of 1ms..1h (under a millisecond no read through a broker keeps it; past an hour it bounds nothing a trial shows)"},
		{func(s *Spec) { s.Rate = []int{1000} }, "rate: rate is a live cell's; a maxrate cell searches for its rate"},
		{func(s *Spec) { s.Linger = nil }, "linger: missing (a live spec needs a linger, e.g. 10ms)"},
		{func(s *Spec) {
			s.Mode, s.Linger, s.Duration, s.LiveWarmup, s.Records = []string{"bounded"}, nil, 0, 0, 10
		}, "max_rate: max_rate is for maxrate cells; add maxrate to mode"},
	} {
		s := base()
		c.edit(s)
		if err := checkSpec(s); err == nil || err.Error() != c.want {
			t.Errorf("checkSpec = %v\nwant %s", err, c.want)
		}
	}
}

// TestMaxRateSpecStored: a maxrate spec read back from a manifest (Resume)
// has its search and expands to the same cells.
func TestMaxRateSpecStored(t *testing.T) {
	s := mustSpec(t, allModesSpec)
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"max_rate":{"p99_ns":100000000,"from":1000,"to":8000}`) {
		t.Errorf("stored spec: %s", b)
	}
	var back Spec
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if err := checkSpec(&back); err != nil {
		t.Fatalf("stored spec: %v", err)
	}
	a, _ := Expand(s)
	c, _ := Expand(&back)
	if len(a) != len(c) || *back.MaxRate != *s.MaxRate {
		t.Fatalf("%d cells, read back %d; max_rate %+v", len(a), len(c), back.MaxRate)
	}
	for i := range a {
		if a[i].Name() != c[i].Name() {
			t.Errorf("cell %d: %s, read back %s", i, a[i].Name(), c[i].Name())
		}
	}
	// A spec without maxrate cells stores no max_rate.
	if b, _ := json.Marshal(mustSpec(t, mixedSpec)); strings.Contains(string(b), "max_rate") {
		t.Errorf("a spec without maxrate cells stores %s", b)
	}
}

// TestRungCellMaxRate: every entry of a schedule with maxrate cells
// (warm-up, measured and A/A) becomes a child cell rungargs accepts and
// the child parses back; a maxrate one gets its own topic, the records of
// its largest trial, the window and the search.
func TestRungCellMaxRate(t *testing.T) {
	s := mustSpec(t, allModesSpec)
	sch, err := NewSchedule(s)
	if err != nil {
		t.Fatal(err)
	}
	topicName := regexp.MustCompile(`^fplab-live-[0-9a-f]{16}-r-?[0-9]+$`)
	maxrate := 0
	for _, round := range sch.Rounds {
		for _, e := range round {
			rc := rungCell(s, e, staticCluster{bootstrap: []string{"h:1"}}, "bid-json-s7-n1000", "/run")
			if err := rc.Validate(); err != nil {
				t.Errorf("%s rep %d: %v", e.Cell.Name(), e.Rep, err)
			}
			back, err := rungargs.Parse(rc.Args(), io.Discard)
			if err != nil || back.Name() != rc.Name() || back.Topic != rc.Topic || back.Records != rc.Records || back.Rep != rc.Rep ||
				back.Warmup != rc.Warmup || back.Duration != rc.Duration || back.LiveDir != rc.LiveDir ||
				back.MaxRateFrom != rc.MaxRateFrom || back.MaxRateTo != rc.MaxRateTo || back.MaxRateP99 != rc.MaxRateP99 {
				t.Errorf("%s rep %d: the child parses %+v, %v", e.Cell.Name(), e.Rep, back, err)
			}
			if !e.Cell.MaxRate() {
				if rc.MaxRateFrom != 0 || rc.MaxRateTo != 0 || rc.MaxRateP99 != 0 {
					t.Errorf("%s has a search: %+v", e.Cell.Name(), rc)
				}
				continue
			}
			maxrate++
			wantDir := "/run/live"
			if e.Warmup {
				wantDir = ""
			}
			if !topicName.MatchString(rc.Topic) || rc.Records != rungargs.LiveRecords(8000, 3*time.Second) || rc.Warmup != time.Second ||
				rc.Duration != 2*time.Second || rc.LiveDir != wantDir || rc.Rep != e.Rep || rc.Failures != 0 ||
				rc.MaxRateFrom != 1000 || rc.MaxRateTo != 8000 || rc.MaxRateP99 != 100*time.Millisecond {
				t.Errorf("maxrate %s: %+v", e.Cell.Name(), rc)
			}
		}
	}
	if maxrate == 0 {
		t.Fatal("no maxrate entry")
	}
}

// TestMaxRateLoads: memory and disk count a maxrate cell as a live cell at
// max_rate.to, its largest trial, and name it when it is the cause.
func TestMaxRateLoads(t *testing.T) {
	s := mustSpec(t, edit(maxRateOnlySpec, "max_rate", "max_rate: {p99: 100ms, from: 10000, to: 100000}"))
	cells, err := Expand(s)
	if err != nil {
		t.Fatal(err)
	}
	l, err := largestLiveLoad(s, cells)
	if err != nil {
		t.Fatal(err)
	}
	if per := l.bytes / int64(l.records); l.records != 300000 || !l.cell.MaxRate() || per < 670 || per > 720 {
		t.Errorf("largest live load: %s, %d records, %d bytes a record", l.cell.Name(), l.records, per)
	}
	err = checkHostMemory(s, cells, 200<<20)
	want := "max_rate.to: maxrate cell path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/mode=maxrate/linger=10ms (its largest trial) would hold about "
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "; lower max_rate.to or duration") {
		t.Errorf("checkHostMemory = %v\nwant %s...", err, want)
	}
	// On real Kafka every trial leaves its topic's log for a minute, each
	// counted at max_rate.to; a trial caches no expected hashes.
	for i := range cells {
		cells[i].Cluster = cell.ClusterKafka
	}
	need, err := diskNeed(s, cells)
	if err != nil || need < 2*300000*150 {
		t.Errorf("diskNeed of maxrate kafka cells = %d, %v", need, err)
	}
	cells[0].Cluster = cell.ClusterEmbedded
	if need, err := diskNeed(s, cells); err != nil || need != 0 {
		t.Errorf("diskNeed of an embedded maxrate cell = %d, %v; want 0", need, err)
	}
}

// TestShippedMaxRateSpec: maxrate.yaml searches shallow, fast and franz
// on the embedded cluster within its timeout, each beside its bounded
// drain of 2M records.
func TestShippedMaxRateSpec(t *testing.T) {
	s, err := LoadSpec("specs/maxrate.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cells, err := Expand(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 6 || s.Records != 2_000_000 || *s.MaxRate != (MaxRateSpec{P99: 100 * time.Millisecond, From: 20000, To: 2000000}) {
		t.Errorf("maxrate.yaml: %d cells, records %d, max_rate %+v", len(cells), s.Records, s.MaxRate)
	}
	total, trials, _ := s.maxRateBudget()
	if trials != 13 || total != 286*time.Second || s.Timeout < total+time.Minute {
		t.Errorf("maxrate.yaml: %d trials, estimate %v, timeout %v", trials, total, s.Timeout)
	}
	maxrate := 0
	for _, c := range cells {
		rc := rungCell(s, Entry{Cell: c}, staticCluster{bootstrap: []string{"h:1"}}, "t", "/run")
		if !c.MaxRate() {
			if c.Live() || rc.Validate() != nil || rc.Records != 2_000_000 {
				t.Errorf("maxrate.yaml bounded cell %s: %d records, %v", c.Name(), rc.Records, rc.Validate())
			}
			continue
		}
		maxrate++
		if c.Value(cell.Cluster) != cell.ClusterEmbedded || rc.Validate() != nil || rc.Records != 8_000_000 {
			t.Errorf("maxrate.yaml cell %s: %d records, %v", c.Name(), rc.Records, rc.Validate())
		}
	}
	if maxrate != 3 {
		t.Errorf("maxrate.yaml has %d maxrate cells, want 3", maxrate)
	}
}

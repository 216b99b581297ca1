package ladder

import (
	"bytes"
	"context"
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

// liveOnlySpec is a spec of live cells only: no records, and the line of
// every field is pinned by TestLiveSpecErrors.
const liveOnlySpec = `name: l
path: [fast]
format: [json]
batch: [8192]
brokers: [1]
alloc: [go]
crc: [off]
mode: [live]
rate: [1000]
linger: [10ms]
duration: 2s
live_warmup: 1s
repetitions: 2
timeout: 20s
seed: 7
`

// mixedSpec has bounded and live cells: 2 paths x 2 batches = 4
// combinations, each bounded once per checkpoint value (2) and live once
// per rate x linger (2 x 3).
const mixedSpec = `name: mixed
path: [shallow, fast]
format: [json]
batch: [1024, 8192]
brokers: [1]
alloc: [go]
crc: [off]
mode: [bounded, live]
rate: [1000, 5000]
linger: [1ms, 10ms, 100ms]
duration: 2s
live_warmup: 1s
records: 1000
repetitions: 2
warmup: 1
timeout: 20s
seed: 7
checkpoint: [off, 1s]
failures: 1
`

// edit replaces the line of src starting with each key ("key:") by its
// line ("" drops it); a key src lacks gets its line appended.
func edit(src string, kv ...string) string {
	lines := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
	for i := 0; i+1 < len(kv); i += 2 {
		key, line := kv[i], kv[i+1]
		var out []string
		done := false
		for _, l := range lines {
			if strings.HasPrefix(l, key+":") {
				if line != "" {
					out = append(out, line)
				}
				done = true
				continue
			}
			out = append(out, l)
		}
		if !done {
			out = append(out, line)
		}
		lines = out
	}
	return strings.Join(lines, "\n") + "\n"
}

func TestParseLiveSpec(t *testing.T) {
	s := mustSpec(t, mixedSpec)
	if !slices.Equal(s.Mode, []string{"bounded", "live"}) || !slices.Equal(s.Rate, []int{1000, 5000}) ||
		!slices.Equal(s.Linger, []time.Duration{time.Millisecond, 10 * time.Millisecond, 100 * time.Millisecond}) ||
		s.Duration != 2*time.Second || s.LiveWarmup != time.Second {
		t.Errorf("parsed: %+v", s)
	}
	if got := strings.Join(s.Axis(cell.Rate), ","); got != "1000,5000" {
		t.Errorf("Axis(rate) = %s", got)
	}
	if got := strings.Join(s.Axis(cell.Linger), ","); got != "1ms,10ms,100ms" {
		t.Errorf("Axis(linger) = %s", got)
	}
	// A live spec that names no linger and no warm-up gets the defaults;
	// rate may be one value, not a list.
	s = mustSpec(t, edit(liveOnlySpec, "rate", "rate: 20_000", "linger", "", "live_warmup", ""))
	if !slices.Equal(s.Rate, []int{20000}) || !slices.Equal(s.Linger, []time.Duration{defaultLinger}) || s.LiveWarmup != defaultLiveWarmup || s.Records != 0 {
		t.Errorf("defaults: rate %v linger %v live_warmup %v records %d", s.Rate, s.Linger, s.LiveWarmup, s.Records)
	}
	// live_warmup may be zero.
	s = mustSpec(t, edit(liveOnlySpec, "live_warmup", "live_warmup: 0s", "linger", "linger: 0.1s"))
	if s.LiveWarmup != 0 || s.Linger[0] != 100*time.Millisecond {
		t.Errorf("live_warmup %v linger %v", s.LiveWarmup, s.Linger)
	}
	// The JVM references java and flink read live (not java-perf: a
	// TestLiveSpecErrors case).
	s = mustSpec(t, edit(liveOnlySpec, "path", "path: [fast, java, flink]"))
	if !slices.Equal(s.Path, []string{cell.PathFast, cell.PathJava, cell.PathFlink}) {
		t.Errorf("paths %v", s.Path)
	}
	// A spec without mode is bounded: the live axes are their defaults.
	b := mustSpec(t, validSpec)
	if got := strings.Join(append(append(b.Axis(cell.Mode), b.Axis(cell.Rate)...), b.Axis(cell.Linger)...), ","); got != "bounded,0,0" {
		t.Errorf("a spec without mode: mode, rate, linger = %s", got)
	}
}

// TestExpandLive: bounded cells take rate 0, linger 0 and every checkpoint
// value; live cells every rate x linger and checkpoint 0; productSize
// counts exactly what product builds.
func TestExpandLive(t *testing.T) {
	s := mustSpec(t, mixedSpec)
	cells, err := Expand(s)
	if err != nil {
		t.Fatal(err)
	}
	var bounded, live int
	combos := map[string]bool{}
	for _, c := range cells {
		if !c.Live() {
			bounded++
			if c.Rate != 0 || c.Linger != 0 || strings.Contains(c.Name(), "rate=") {
				t.Errorf("bounded cell %s has live parts", c.Name())
			}
			continue
		}
		live++
		if c.Ckpt != 0 {
			t.Errorf("live cell %s checkpoints", c.Name())
		}
		if _, err := cell.Parse(c.Name()); err != nil {
			t.Errorf("live cell name: %v", err)
		}
		combos[c.Value(cell.Rate)+"/"+c.Value(cell.Linger)] = true
	}
	if bounded != 4*2 || live != 4*2*3 || len(combos) != 6 {
		t.Errorf("%d bounded and %d live cells over %d rate/linger pairs, want 8, 24, 6", bounded, live, len(combos))
	}
	if n := productSize(s); n != len(product(s)) || n != 32 {
		t.Errorf("productSize = %d, product builds %d, want 32", n, len(product(s)))
	}
	for _, src := range []string{liveOnlySpec, validSpec, edit(mixedSpec, "checkpoint", "", "failures", "", "mode", "mode: [live, bounded]"),
		edit(mixedSpec, "seed", "seed: 7\nprofile: [off, on]")} {
		s := mustSpec(t, src)
		if n := productSize(s); n != len(product(s)) {
			t.Errorf("productSize = %d, product builds %d for\n%s", n, len(product(s)), src)
		}
	}
	// The live axes and mode are exclusion, calibration and broker_kill
	// keys; a linger matches in its cell-name spelling.
	s = mustSpec(t, mixedSpec+"exclude:\n  - {mode: live, linger: 0.1s}\n  - {rate: 5000, batch: 1024}\ncalibrate: {mode: live, rate: 5000, linger: 1ms}\n")
	cells, err = Expand(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cells {
		if c.Linger == 100*time.Millisecond || (c.Rate == 5000 && c.Batch == 1024) {
			t.Errorf("excluded cell kept: %s", c.Name())
		}
	}
	// 8 bounded + 24 live cells, less the 8 live ones at 100ms and the 4
	// others at rate 5000 and batch 1024.
	if want := 8 + 24 - 8 - 4; len(cells) != want {
		t.Errorf("%d cells, want %d", len(cells), want)
	}
	sch, err := NewSchedule(s)
	if err != nil || !sch.Calibration.Live() || sch.Calibration.Rate != 5000 || sch.Calibration.Linger != time.Millisecond {
		t.Errorf("calibration %s: %v", sch.Calibration.Name(), err)
	}
}

// TestLiveSpecErrors pins the one-line error of every live setting the
// lab refuses.
func TestLiveSpecErrors(t *testing.T) {
	const clean = "a live or maxrate cell writes the clean topic (no transactions, tombstones or parity case)"
	cases := []struct{ name, src, want string }{
		// What a live spec must say.
		{"no rate", edit(liveOnlySpec, "rate", ""),
			`l.yaml:1: rate: missing (a live spec needs a target rate in records/s; rate has no default)`},
		{"no duration", edit(liveOnlySpec, "duration", ""),
			`l.yaml:1: duration: missing (a live spec needs its cells' measured window, e.g. 10s)`},
		{"bounded cells without records", edit(liveOnlySpec, "mode", "mode: [bounded, live]"),
			`l.yaml:1: records: missing (required field)`},
		// Live fields without live cells.
		{"rate on a bounded spec", edit(liveOnlySpec, "mode", "mode: [bounded]", "seed", "seed: 7\nrecords: 10"),
			`l.yaml:9: rate: rate and linger are for live cells; add live to mode`},
		{"linger without mode", edit(liveOnlySpec, "mode", "", "rate", "", "seed", "seed: 7\nrecords: 10"),
			`l.yaml:8: linger: rate and linger are for live cells; add live to mode`},
		{"zero warm-up on a bounded spec", validSpec + "live_warmup: 0s\n",
			`l.yaml:12: live_warmup: duration and live_warmup are a live cell's window; add live to mode`},
		{"duration on a bounded spec", validSpec + "duration: 10s\n",
			`l.yaml:12: duration: duration and live_warmup are a live cell's window; add live to mode`},
		// Values.
		{"rate zero", edit(liveOnlySpec, "rate", "rate: [0]"),
			`l.yaml:9: rate: want a list of positive integers, got "0"`},
		{"rate zero alone", edit(liveOnlySpec, "rate", "rate: 0"),
			`l.yaml:9: rate: want a positive integer or a list of them, got "0"`},
		{"rate past the producer", edit(liveOnlySpec, "rate", "rate: 20_000_000"),
			`l.yaml:9: rate: 20000000 is over the bound of 10000000 (a rate no host could produce, clusters.MaxPacedRate)`},
		{"rate twice", edit(liveOnlySpec, "rate", "rate: [1000, 1_000]"),
			`l.yaml:9: rate: value "1_000" is 1000, listed twice`},
		{"linger not a duration", edit(liveOnlySpec, "linger", "linger: soon"),
			`l.yaml:10: linger: want a duration like 10ms, got "soon"`},
		{"linger below a millisecond", edit(liveOnlySpec, "linger", "linger: 500us"),
			`l.yaml:10: linger: 500µs is not a whole number of milliseconds (the librdkafka paths wait for records in whole ms)`},
		{"linger not whole milliseconds", edit(liveOnlySpec, "linger", "linger: [10ms, 1.5ms]"),
			`l.yaml:10: linger: 1.5ms is not a whole number of milliseconds (the librdkafka paths wait for records in whole ms)`},
		{"linger past source's bound", edit(liveOnlySpec, "linger", "linger: [10ms, 11s]"),
			`l.yaml:10: linger: 11s is over the bound of 10s (source's maxLinger: past it a linger is a batch interval)`},
		{"linger twice", edit(liveOnlySpec, "linger", "linger: [10ms, 0.01s]"),
			`l.yaml:10: linger: value "0.01s" is 10ms, listed twice`},
		{"negative warm-up", edit(liveOnlySpec, "live_warmup", "live_warmup: -1s"),
			`l.yaml:12: live_warmup: want a non-negative duration like 2s, got "-1s"`},
		{"duration shorter than the warm-up", edit(liveOnlySpec, "duration", "duration: 500ms"),
			`l.yaml:11: duration: 500ms is a duration shorter than the warm-up (live_warmup: 1s)`},
		{"span past the producer", edit(liveOnlySpec, "rate", "rate: 1", "duration", "duration: 25h", "timeout", "timeout: 30h"),
			`l.yaml:11: duration: live_warmup + duration is 25h0m1s, over the bound of 24h0m0s (the paced producer's longest run, clusters.MaxPacedSpan)`},
		{"no record", edit(liveOnlySpec, "rate", "rate: [1]", "live_warmup", "live_warmup: 0s", "duration", "duration: 500ms"),
			`l.yaml:9: rate: 1 records/s over live_warmup + duration (500ms) writes no record`},
		{"too many records", edit(liveOnlySpec, "rate", "rate: [1000, 10_000_000]", "duration", "duration: 5s"),
			`l.yaml:9: rate: 10000000 records/s over live_warmup + duration (6s) is 60000000 records, over the bound of 50000000 (the producer and an embedded broker hold them all in memory, ladder/limits.go)`},
		{"scaled live records", edit(liveOnlySpec, "rate", "rate: [100000]", "seed", "seed: 7\nsize: [100, 16384]"),
			`l.yaml:16: size: 16384-byte records x 300000 records (a live cell at rate 100000 over 3s) is over the lab's 2 GiB bound on a scaled corpus (lower rate or duration)`},
		{"timeout without the margin", edit(liveOnlySpec, "timeout", "timeout: 13s"),
			`l.yaml:14: timeout: 13s does not exceed live_warmup + duration (3s) plus 10s of start-up margin (the live cell's topic, producer and reader start within it); give more than 13s`},
		{"discover too often", edit(liveOnlySpec, "seed", "seed: 7\ndiscover: [off, 1ms]"),
			`l.yaml:16: discover: 1ms is out of 10ms..1h0m0s (source.Config.Discovery's bounds)`},
		{"discover with wake", edit(liveOnlySpec, "seed", "seed: 7\ndiscover: 100ms\nwake: 20ms"),
			`l.yaml:16: discover: only a live cell of a Go path without wake or pause adds partitions mid-read, but cell path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/mode=live/rate=1000/linger=10ms/wake=20ms/discover=100ms would`},
		{"discover with keys", edit(liveOnlySpec, "seed", "seed: 7\ndiscover: 100ms\nkeys: [on]"),
			`l.yaml:16: discover: the records a discover cell writes to its added partitions carry no keys and no tombstones, but cell path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/keys=on/mode=live/rate=1000/linger=10ms/discover=100ms has keys or nulls`},
		// What applies to bounded cells only.
		{"records in a live-only spec", edit(liveOnlySpec, "seed", "seed: 7\nrecords: 1000"),
			`l.yaml:16: records: a spec of live cells only has no corpus (each live cell writes rate x (live_warmup + duration) records); drop records or add bounded to mode`},
		{"checkpoint in a live-only spec", edit(liveOnlySpec, "seed", "seed: 7\ncheckpoint: [off, 1s]"),
			`l.yaml:16: checkpoint: applies to bounded cells, and this spec has live cells only (a live cell does not checkpoint)`},
		// Cells no child can run.
		{"live rowwise", edit(liveOnlySpec, "path", "path: [fast, rowwise]"),
			`l.yaml:2: path: path rowwise cannot read live (a row path has no linger rule; its batches are handed over only when full), but cell path=rowwise/format=json/batch=8192/brokers=1/alloc=go/crc=off/mode=live/rate=1000/linger=10ms does; exclude it (- {path: rowwise, mode: live})`},
		{"live ceiling", edit(liveOnlySpec, "path", "path: [ceiling]"),
			`l.yaml:2: path: path ceiling cannot read live (the serving ceiling counts a bounded range of fetches), but cell path=ceiling/format=json/batch=8192/brokers=1/alloc=go/crc=off/mode=live/rate=1000/linger=10ms does; exclude it (- {path: ceiling, mode: live})`},
		{"live java-perf", edit(liveOnlySpec, "path", "path: [java-perf]", "seed", "seed: 7\ncluster: [kafka]"),
			`l.yaml:2: path: path java-perf cannot read live (Kafka's ConsumerPerformance reads a bounded count and prints totals only, no per-record hand-over times to measure latency from), but cell path=java-perf/format=json/batch=8192/brokers=1/alloc=go/crc=off/cluster=kafka/mode=live/rate=1000/linger=10ms does; exclude it (- {path: java-perf, mode: live})`},
		{"live transactions", edit(liveOnlySpec, "seed", "seed: 7\ntxn: [off, aborts]"),
			`l.yaml:16: txn: ` + clean + `, but cell path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/txn=aborts/mode=live/rate=1000/linger=10ms has txn=aborts; exclude it (- {mode: live, txn: aborts})`},
		{"live tombstones", edit(liveOnlySpec, "seed", "seed: 7\nnulls: [0.01]"),
			`l.yaml:16: nulls: ` + clean + `, but cell path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/nulls=0.01/mode=live/rate=1000/linger=10ms has nulls=0.01; exclude it (- {mode: live, nulls: "!0"})`},
		{"live parity case", edit(liveOnlySpec, "seed", "seed: 7\ncase: [uneven]"),
			`l.yaml:16: case: ` + clean + `, but cell path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/case=uneven/mode=live/rate=1000/linger=10ms has case=uneven; exclude it (- {mode: live, case: "!none"})`},
		{"live broker kill", edit(liveOnlySpec, "brokers", "brokers: [3]", "seed", "seed: 7\ncluster: [kafka]\nbroker_kill: {path: fast}"),
			`l.yaml:17: broker_kill: selects path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off/cluster=kafka/mode=live/rate=1000/linger=10ms/fault=kill, but a live or maxrate cell cannot lose a broker mid-cell (yet); add mode: bounded to broker_kill`},
		{"too many cells with live", edit(liveOnlySpec, "mode", "mode: [bounded, live]", "batch", "batch: ["+intRange(1, 20001)+"]", "path", "path: [shallow, fast, franz]",
			"rate", "rate: [1000, 2000]", "linger", "linger: [1ms, 10ms]", "seed", "seed: 7\nrecords: 10"),
			// 3 x 20001 = 60003 bounded cells fit, with 4 x as many live ones they do not.
			`l.yaml:1: spec: the axes multiply to more than 200000 cells (the lab's bound on one spec)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseSpec("l.yaml", []byte(c.src))
			if err == nil {
				t.Fatalf("no error for:\n%s", c.src)
			}
			if err.Error() != c.want {
				src := c.src
				if len(src) > 2000 {
					src = src[:2000] + "..."
				}
				t.Errorf("error\n got: %s\nwant: %s\nspec:\n%s", err, c.want, src)
			}
			var se *SpecError
			if !errors.As(err, &se) || se.File != "l.yaml" || !strings.HasPrefix(c.want, se.Pos()+": ") {
				t.Errorf("error %v is not a *SpecError at the position it names (%+v)", err, se)
			}
		})
	}
	// A live cell on an external cluster is fine.
	mustSpec(t, edit(liveOnlySpec, "seed", "seed: 7\ncluster: [external]\nbootstrap: [k:9092]"))
}

// TestLiveSpecStored: a live spec read back from a manifest (Resume)
// expands to the same cells, defaults included.
func TestLiveSpecStored(t *testing.T) {
	s := mustSpec(t, edit(mixedSpec, "linger", "", "live_warmup", ""))
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
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
	if len(a) != len(c) || len(a) != 8+4*2 {
		t.Fatalf("%d cells, read back %d", len(a), len(c))
	}
	for i := range a {
		if a[i].Name() != c[i].Name() {
			t.Errorf("cell %d: %s, read back %s", i, a[i].Name(), c[i].Name())
		}
	}
	if back.LiveWarmup != defaultLiveWarmup || back.Linger[0] != defaultLinger {
		t.Errorf("read back live_warmup %v linger %v", back.LiveWarmup, back.Linger)
	}
}

// TestLiveSpecErrorsInCode: a spec built in code or read from a manifest
// (no parser, no defaults) is held to the same bounds.
func TestLiveSpecErrorsInCode(t *testing.T) {
	base := func() *Spec {
		return &Spec{Path: []string{"fast"}, Format: []string{"json"}, Batch: []int{8192}, Brokers: []int{1}, Alloc: []string{"go"},
			CRC: []string{"off"}, Mode: []string{"live"}, Rate: []int{1000}, Linger: []time.Duration{10 * time.Millisecond},
			Duration: 2 * time.Second, LiveWarmup: time.Second, Repetitions: 1, Timeout: 20 * time.Second, Partitions: 6, Schema: "bid"}
	}
	if err := checkSpec(base()); err != nil {
		t.Fatalf("a valid live spec: %v", err)
	}
	for _, c := range []struct {
		edit func(*Spec)
		want string
	}{
		{func(s *Spec) { s.Linger = nil }, "linger: missing (a live spec needs a linger, e.g. 10ms)"},
		{func(s *Spec) { s.Rate = []int{0} }, "rate: 0 is out of 1..10000000 (a rate no host could produce, clusters.MaxPacedRate)"},
		{func(s *Spec) { s.Linger = []time.Duration{time.Microsecond} }, "linger: 1µs is not a whole number of milliseconds (the librdkafka paths wait for records in whole ms)"},
		{func(s *Spec) { s.LiveWarmup = -time.Second }, "live_warmup: -1s is negative"},
		{func(s *Spec) { s.Mode = nil; s.Records = 10 }, "rate: rate and linger are for live cells; add live to mode"},
		{func(s *Spec) { s.Mode, s.Rate, s.Linger, s.Records = nil, nil, nil, 10 }, "duration: duration and live_warmup are a live cell's window; add live to mode"},
		{func(s *Spec) { s.Mode = []string{"bounded", "live"} }, "records: 0 is out of 1..50000000"},
		{func(s *Spec) { s.Failures = 1 }, "failures: reader kills apply to checkpointing bounded cells, and this spec has live cells only"},
	} {
		s := base()
		c.edit(s)
		if err := checkSpec(s); err == nil || err.Error() != c.want {
			t.Errorf("checkSpec = %v\nwant %s", err, c.want)
		}
	}
}

// TestRungCellLive: every entry of a live schedule (warm-up, measured and
// A/A) becomes a child cell rungargs accepts; a live one names a topic of
// its own per cell and repetition, writes rate x (live_warmup + duration)
// records and keeps its latency files in the run's live directory.
func TestRungCellLive(t *testing.T) {
	s := mustSpec(t, mixedSpec)
	sch, err := NewSchedule(s)
	if err != nil {
		t.Fatal(err)
	}
	topicName := regexp.MustCompile(`^fplab-live-[0-9a-f]{16}-r-?[0-9]+$`)
	topics := map[string]string{}
	live := 0
	for _, round := range sch.Rounds {
		for _, e := range round {
			rc := rungCell(s, e, staticCluster{bootstrap: []string{"h:1"}}, "bid-json-s7-n1000", "/run")
			if err := rc.Validate(); err != nil {
				t.Errorf("%s rep %d: %v", e.Cell.Name(), e.Rep, err)
			}
			// The child reads back what the ladder meant (a warm-up's rep
			// is -1).
			back, err := rungargs.Parse(rc.Args(), io.Discard)
			if err != nil || back.Name() != rc.Name() || back.Topic != rc.Topic || back.Records != rc.Records || back.Rep != rc.Rep ||
				back.Warmup != rc.Warmup || back.Duration != rc.Duration || back.LiveDir != rc.LiveDir {
				t.Errorf("%s rep %d: the child parses %+v, %v", e.Cell.Name(), e.Rep, back, err)
			}
			if !e.Cell.Live() {
				if rc.Topic != "bid-json-s7-n1000" || rc.Records != 1000 || rc.LiveDir != "" || rc.Duration != 0 {
					t.Errorf("bounded %s: topic %s records %d live dir %q", e.Cell.Name(), rc.Topic, rc.Records, rc.LiveDir)
				}
				continue
			}
			live++
			if !topicName.MatchString(rc.Topic) || len(rc.Topic) > 200 {
				t.Errorf("live topic %q", rc.Topic)
			}
			key := e.Key()
			if other, dup := topics[rc.Topic]; dup && other != key {
				t.Errorf("topic %s for %s and %s", rc.Topic, other, key)
			}
			topics[rc.Topic] = key
			// a warm-up's latencies are kept nowhere
			wantDir := "/run/live"
			if e.Warmup {
				wantDir = ""
			}
			if want := rungargs.LiveRecords(e.Cell.Rate, 3*time.Second); rc.Records != want || rc.Warmup != time.Second || rc.Duration != 2*time.Second ||
				rc.LiveDir != wantDir || rc.Rep != e.Rep || rc.HashCache != "/run/hashes" || rc.Failures != 0 {
				t.Errorf("live %s: %+v", e.Cell.Name(), rc)
			}
			args := strings.Join(rc.Args(), " ")
			if !strings.Contains(args, "--live-warmup 1s --live-duration 2s") || strings.Contains(args, "--live-dir") == e.Warmup {
				t.Errorf("live args %s", args)
			}
		}
	}
	if live == 0 {
		t.Fatal("no live entry")
	}
}

// TestSetUpLoadsNoCorpusForLive: live entries start their cluster but load
// nothing; bounded entries of the same shape load theirs.
func TestSetUpLoadsNoCorpusForLive(t *testing.T) {
	for _, c := range []struct {
		src   string
		loads int
	}{{liveOnlySpec, 0}, {mixedSpec, 1}} {
		s := mustSpec(t, c.src)
		sch, err := NewSchedule(s)
		if err != nil {
			t.Fatal(err)
		}
		infra := &fakeInfra{}
		r := &runner{spec: s, sch: sch, infra: infra, dir: t.TempDir(), scratch: &scratch{dir: t.TempDir()},
			opt: Options{LoadTimeout: time.Minute, ProbeTimeout: time.Minute}}
		var todo []Entry
		for _, round := range sch.Rounds {
			todo = append(todo, round...)
		}
		_, topics, stop, err := r.setUp(context.Background(), todo, newProgress(&bytes.Buffer{}, len(todo), time.Now()))
		stop()
		if err != nil {
			t.Fatal(err)
		}
		if len(infra.started) != 1 || len(infra.loads) != c.loads || len(topics) != c.loads {
			t.Errorf("%s: started %v, loaded %v", s.Name, infra.started, infra.loads)
		}
	}
}

// TestLiveMemory: a live cell adds its records in its producer and an
// embedded broker while it runs, and is named when it is the cause.
func TestLiveMemory(t *testing.T) {
	s := mustSpec(t, edit(liveOnlySpec, "rate", "rate: [1000, 100000]"))
	cells, err := Expand(s)
	if err != nil {
		t.Fatal(err)
	}
	l, err := largestLiveLoad(s, cells)
	if err != nil {
		t.Fatal(err)
	}
	// 300,000 records of bid json (~144 B): 144 + 200 in the producer,
	// 2 x 144 + 64 in the broker.
	if per := l.bytes / int64(l.records); l.records != 300000 || l.cell.Rate != 100000 || per < 670 || per > 720 {
		t.Errorf("largest live load: %s, %d records, %d bytes a record", l.cell.Name(), l.records, per)
	}
	if loads, _ := embeddedLoads(s, cells); len(loads) != 0 {
		t.Errorf("live cells hold corpora: %+v", loads)
	}
	err = checkHostMemory(s, cells, 200<<20)
	want := "rate: live cell path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/mode=live/rate=100000/linger=10ms would hold about "
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), " MiB while it runs (300000 records in its producer and the embedded broker, about ") ||
		!strings.Contains(err.Error(), "on top of 0.0 MiB of corpora: more than 70% of this host's 200.0 MiB; lower rate or duration") {
		t.Errorf("checkHostMemory = %v\nwant %s...", err, want)
	}
	if err := checkHostMemory(s, cells, 1<<30); err != nil {
		t.Errorf("the same spec on 1 GiB: %v", err)
	}
	// On real Kafka only the producer counts.
	for i := range cells {
		cells[i].Cluster = cell.ClusterKafka
	}
	if l, _ := largestLiveLoad(s, cells); l.bytes/int64(l.records) > 400 {
		t.Errorf("a kafka live cell: %d bytes a record", l.bytes/int64(l.records))
	}
	// Disk: no corpus, the expected hashes of each live corpus, and on
	// real Kafka the live topics' logs.
	need, err := diskNeed(s, cells)
	if err != nil || need < int64(300000+3000)*hashBytesPerRecord+300000*150 {
		t.Errorf("diskNeed of live kafka cells = %d, %v", need, err)
	}
}

// TestShippedLiveSpecs: live.yaml sweeps live cells only; smoke.yaml's
// covering set holds one live and one maxrate cell next to its bounded
// ones.
func TestShippedLiveSpecs(t *testing.T) {
	s, err := LoadSpec("specs/live.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cells, err := Expand(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 3*2*3*3 || s.Records != 0 {
		t.Errorf("live.yaml: %d cells, records %d; want 54, 0", len(cells), s.Records)
	}
	for _, c := range cells {
		e := Entry{Cell: c, Rep: 0}
		if rc := rungCell(s, e, staticCluster{bootstrap: []string{"h:1"}}, "", "/run"); !c.Live() || rc.Validate() != nil {
			t.Errorf("live.yaml cell %s: live %v, %v", c.Name(), c.Live(), rc.Validate())
		}
	}
	smoke, err := LoadSpec("specs/smoke.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cells, _ = Expand(smoke)
	live, maxrate := 0, 0
	for _, c := range cells {
		if c.Live() && !c.MaxRate() {
			live++
		}
		if c.MaxRate() {
			maxrate++
		}
		if rc := rungCell(smoke, Entry{Cell: c}, staticCluster{bootstrap: []string{"h:1"}}, "t", "/run"); rc.Validate() != nil {
			t.Errorf("smoke cell %s: %v", c.Name(), rc.Validate())
		}
	}
	if live != 1 || maxrate != 1 {
		t.Errorf("smoke has %d live and %d maxrate cells, want 1 and 1", live, maxrate)
	}
}

package ladder

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
)

const validSpec = `name: t
path: [fast]
format: [json]
batch: [8192]
brokers: [1]
alloc: [go]
crc: [off]
records: 1000
repetitions: 2
timeout: 10s
seed: 7
`

func TestParseSpecDefaults(t *testing.T) {
	s, err := ParseSpec("x.yaml", []byte(validSpec))
	if err != nil {
		t.Fatal(err)
	}
	if s.Partitions != 6 || s.Schema != "bid" || len(s.Cluster) != 1 || s.Cluster[0] != "embedded" {
		t.Errorf("defaults: partitions=%d schema=%s cluster=%v", s.Partitions, s.Schema, s.Cluster)
	}
	if s.Warmup != 0 || len(s.Checkpoint) != 0 || s.Failures != 0 || s.Timeout != 10*time.Second || s.Seed != 7 {
		t.Errorf("fields: %+v", s)
	}
}

func TestParseSpecAllFields(t *testing.T) {
	src := `name: all
covering: true
path: [rowwise, shallow, fast, franz]
format: [json, avro, protobuf, csv, raw]
batch: [1_024, 8192]
brokers: [1, 3]
alloc: [go, mimalloc2, mimalloc3]
crc: [on, off]
cluster: [embedded, external]
bootstrap: [k1:9092, k2:9092]
cluster_props: {security.protocol: SASL_SSL}
records: 20000
repetitions: 3
warmup: 1
timeout: 1m
seed: 18446744073709551615
partitions: 12
schema: bid-wide
checkpoint: 250ms
failures: 2
exclude:
  - {path: franz, crc: on}
calibrate: {path: fast, batch: 8192}
`
	s, err := ParseSpec("all.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Covering || s.Batch[0] != 1024 || len(s.Checkpoint) != 1 || s.Checkpoint[0] != 250*time.Millisecond || s.Failures != 2 ||
		s.Seed != 18446744073709551615 || s.Schema != "bid-wide" || s.Partitions != 12 ||
		s.ClusterProps["security.protocol"] != "SASL_SSL" || len(s.Bootstrap) != 2 ||
		s.Exclude[0]["path"] != "franz" || s.Calibrate["batch"] != "8192" || s.Warmup != 1 {
		t.Errorf("parsed: %+v", s)
	}
}

// TestSpecErrors pins the exact one-line error of every kind of bad spec.
func TestSpecErrors(t *testing.T) {
	base := strings.Split(strings.TrimSuffix(validSpec, "\n"), "\n")
	// with replaces the line starting with key (or appends it).
	with := func(key, line string) string {
		out := []string{}
		done := false
		for _, l := range base {
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
		return strings.Join(out, "\n") + "\n"
	}
	cases := []struct{ name, src, want string }{
		{"batch not a number", with("batch", `batch: [8192, abc]`),
			`x.yaml:4: batch: want a list of positive integers, got "abc"`},
		{"batch scalar", with("batch", `batch: 8192`),
			`x.yaml:4: batch: want a list of positive integers, got "8192"`},
		{"batch zero", with("batch", `batch: [0]`),
			`x.yaml:4: batch: want a list of positive integers, got "0"`},
		{"empty list", with("path", `path: []`),
			`x.yaml:2: path: want a non-empty list of values (rowwise, shallow, fast, franz, java, java-perf, flink, flink-warm, ceiling)`},
		{"unknown path", with("path", `path: [fast, spark]`),
			`x.yaml:2: path: unknown value "spark" (want rowwise, shallow, fast, franz, java, java-perf, flink, flink-warm, ceiling)`},
		{"unknown format", with("format", `format: [xml]`),
			`x.yaml:3: format: unknown value "xml" (want json, avro, protobuf, csv, raw)`},
		{"unknown alloc", with("alloc", `alloc: [jemalloc]`),
			`x.yaml:6: alloc: unknown value "jemalloc" (want go, mimalloc2, mimalloc3)`},
		{"unknown crc", with("crc", `crc: [maybe]`),
			`x.yaml:7: crc: unknown value "maybe" (want on, off)`},
		{"unknown cluster", with("seed", "seed: 7\ncluster: [k8s]"),
			`x.yaml:12: cluster: unknown value "k8s" (want embedded, external, kafka)`},
		{"duplicate value", with("crc", `crc: [on, on]`),
			`x.yaml:7: crc: value "on" listed twice`},
		{"decode_mem without decode", with("seed", "seed: 7\ndecode_mem: [go, pool]"),
			`x.yaml:12: decode_mem: configures the decode micro-benchmark, which the spec does not run (add micro: [decode])`},
		{"unknown decode_mem", with("seed", "seed: 7\nmicro: [decode]\ndecode_mem: [arena]"),
			`x.yaml:13: decode_mem: unknown value "arena" (want go, pool)`},
		{"unknown field", with("seed", "seed: 7\nrepetition: 3"),
			`x.yaml:12: repetition: unknown field (see docs/spec.md)`},
		{"duplicate field", with("seed", "seed: 7\nseed: 8"),
			`x.yaml:12: seed: field given twice`},
		{"duplicate cluster prop", with("seed", "seed: 7\ncluster_props:\n  security.protocol: SASL_SSL\n  security.protocol: PLAINTEXT"),
			`x.yaml:14: cluster_props.security.protocol: key given twice`},
		{"duplicate key in an exclusion", with("seed", "seed: 7\nexclude:\n  - {path: fast, path: shallow}"),
			`x.yaml:13: exclude[0].path: key given twice`},
		{"missing field", with("records", ""),
			`x.yaml:1: records: missing (required field)`},
		{"bad records", with("records", "records: -5"),
			`x.yaml:8: records: want a positive integer, got "-5"`},
		{"bad warmup", with("seed", "seed: 7\nwarmup: many"),
			`x.yaml:12: warmup: want a non-negative integer, got "many"`},
		{"bad timeout", with("timeout", "timeout: 10"),
			`x.yaml:10: timeout: want a positive duration like 90s, got "10"`},
		{"bad checkpoint", with("seed", "seed: 7\ncheckpoint: sometimes"),
			`x.yaml:12: checkpoint: want a positive duration like 90s or off, got "sometimes"`},
		{"bad seed", with("seed", "seed: -1"),
			`x.yaml:11: seed: want a non-negative integer, got "-1"`},
		{"bad schema", with("seed", "seed: 7\nschema: ask"),
			`x.yaml:12: schema: unknown value "ask" (want bid, bid-wide)`},
		{"list for scalar", with("records", "records: [1]"),
			`x.yaml:8: records: want a positive integer, got a list`},
		{"exclusion unknown axis", with("seed", "seed: 7\nexclude:\n  - {colour: red}"),
			`x.yaml:13: exclude: unknown axis "colour" (want path, format, batch, brokers, alloc, crc, cluster, compression, size, keys, nulls, txn, case, decoder, mode, rate, linger, par, drain, partfetch, queuemin, fetchwait, rdkstats)`},
		{"exclusion unknown value", with("seed", "seed: 7\nexclude:\n  - {path: spark}"),
			`x.yaml:13: exclude.path: unknown value "spark" (want rowwise, shallow, fast, franz, java, java-perf, flink, flink-warm, ceiling)`},
		{"empty matrix", with("seed", "seed: 7\nexclude:\n  - {path: fast}"),
			`x.yaml:12: exclude: every cell is excluded (empty matrix)`},
		{"calibrate matches nothing", with("seed", "seed: 7\ncalibrate: {path: franz}"),
			`x.yaml:12: calibrate: no cell of the expansion matches {path=franz}`},
		{"external without bootstrap", with("seed", "seed: 7\ncluster: [external]"),
			`x.yaml:12: bootstrap: cluster external needs a bootstrap list`},
		// Limits (limits.go): every bound the lab knows, refused at load.
		{"batch over the source bound", with("batch", `batch: [8192, 1000000000]`),
			`x.yaml:4: batch: 1000000000 is over the bound of 1048576 (every path refuses a larger batch, source/config.go)`},
		{"batch twice after normalisation", with("batch", `batch: [1024, 1_024]`),
			`x.yaml:4: batch: value "1_024" is 1024, listed twice`},
		{"brokers twice after normalisation", with("brokers", `brokers: [3, 03]`),
			`x.yaml:5: brokers: value "03" is 3, listed twice`},
		{"checkpoint twice after normalisation", with("seed", "seed: 7\ncheckpoint: [off, 1s, 1000ms]"),
			`x.yaml:12: checkpoint: value "1000ms" is 1s, listed twice`},
		{"repetitions over the bound", with("repetitions", "repetitions: 1000000000"),
			`x.yaml:9: repetitions: 1000000000 is over the bound of 1000 (rounds are laid out in memory before the run starts)`},
		{"warmup over the bound", with("seed", "seed: 7\nwarmup: 1001"),
			`x.yaml:12: warmup: 1001 is over the bound of 1000 (rounds are laid out in memory before the run starts)`},
		{"records over the bound", with("records", "records: 1_000_000_000"),
			`x.yaml:8: records: 1000000000 is over the bound of 200000000 (the hash cache and the load's time on real Kafka, ladder/limits.go)`},
		{"records over the embedded bound", with("records", "records: 60_000_000"),
			`x.yaml:8: records: 60000000 is over the bound of 50000000 for embedded cells (an embedded broker holds the corpus in memory); a spec on cluster kafka alone may read up to 200000000`},
		{"partitions over the bound", with("seed", "seed: 7\npartitions: 1025"),
			`x.yaml:12: partitions: 1025 is over the bound of 1024 (the loader and every reader refuse more)`},
		{"failures over the bound", with("seed", "seed: 7\ncheckpoint: 1s\nfailures: 10001"),
			`x.yaml:13: failures: 10001 is over the bound of 10000 (the checkpoint supervisor's bound)`},
		{"partfetch over librdkafka's bound", with("seed", "seed: 7\npartfetch: [262144, 2000000000]"),
			`x.yaml:12: partfetch: 2000000000 is over the bound of 1000000000 (librdkafka's bound on max.partition.fetch.bytes)`},
		{"fetchwait not whole ms", with("seed", "seed: 7\nfetchwait: [10ms, 1500us]"),
			`x.yaml:12: fetchwait: 1.5ms is not whole milliseconds up to 5m0s (librdkafka's fetch.wait.max.ms)`},
		{"rdkstats under source's bound", with("seed", "seed: 7\nrdkstats: 5ms"),
			`x.yaml:12: rdkstats: 5ms is not whole milliseconds from 10ms to 1h0m0s (statistics.interval.ms)`},
		{"rdkstats with checkpoints", with("seed", "seed: 7\ncheckpoint: 1s\nrdkstats: 100ms"),
			`x.yaml:13: rdkstats: rdkstats samples a plain bounded read (no checkpoint, no special case), but cell path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/rdkstats=100ms/ckpt=1s is not one; list off for it`},
		{"discover without live cells", with("seed", "seed: 7\ndiscover: 100ms"),
			`x.yaml:12: discover: discover is a live cell's (mode=live adds partitions mid-read); add live to mode`},
		{"bad rescale", with("seed", "seed: 7\ncheckpoint: 1s\nfailures: 1\nrescale: [3to2, 3-2]"),
			`x.yaml:14: rescale: rescale "3-2" is not <from>to<to>, e.g. 3to2`},
		{"rescale without failures", with("seed", "seed: 7\ncheckpoint: 1s\nrescale: 3to2"),
			`x.yaml:13: rescale: rescale=3to2 restores a checkpoint after a failure, but failures is 0`},
		{"rescale past the partitions", with("seed", "seed: 7\ncheckpoint: 1s\nfailures: 1\nrescale: [off, 2to7]"),
			`x.yaml:14: rescale: rescale=2to7 runs more subtasks than the topic's 6 partitions`},
		{"rescale with commits", with("seed", "seed: 7\ncheckpoint: 1s\nfailures: 1\ncommit_offsets: on\nrescale: 3to2"),
			`x.yaml:15: rescale: a rescaled reader does not commit offsets, but cell path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/ckpt=1s/commit=on/rescale=3to2 has commit=on; list commit_offsets off for it`},
		{"failures without checkpoints", with("seed", "seed: 7\nfailures: 1"),
			`x.yaml:12: failures: 1 reader kills need checkpoints (set checkpoint to an interval, e.g. 1s)`},
		{"failures with checkpoints off", with("seed", "seed: 7\ncheckpoint: [off]\nfailures: 2"),
			`x.yaml:13: failures: 2 reader kills need checkpoints (set checkpoint to an interval, e.g. 1s)`},
		{"failures beyond the records", with("records", "records: 20\ncheckpoint: 1s\nfailures: 19"),
			`x.yaml:10: failures: 19 kills cannot be placed in 20 records (at most 18: kills land on distinct records in the first 9/10 of the corpus)`},
		{"java-perf on embedded", with("path", `path: [fast, java-perf]`),
			`x.yaml:2: path: java-perf runs on cluster kafka only, but cell path=java-perf/format=json/batch=8192/brokers=1/alloc=go/crc=off is on embedded (exclude it: - {path: java-perf, cluster: embedded})`},
		{"java-perf on external", strings.NewReplacer("path: [fast]", "path: [java-perf]", "seed: 7", "seed: 7\ncluster: [external]\nbootstrap: [k:9092]").Replace(validSpec),
			`x.yaml:2: path: java-perf runs on cluster kafka only, but cell path=java-perf/format=json/batch=8192/brokers=1/alloc=go/crc=off/cluster=external is on external (exclude it: - {path: java-perf, cluster: external})`},
		{"flink with reader kills", strings.NewReplacer("path: [fast]", "path: [flink]", "seed: 7", "seed: 7\ncheckpoint: [1s]\nfailures: 1").Replace(validSpec),
			`x.yaml:13: failures: path flink checkpoints with Flink's own mechanism and cannot have its reader killed, but cell path=flink/format=json/batch=8192/brokers=1/alloc=go/crc=off/ckpt=1s would be (failures: 1); exclude it`},
		{"flink with tombstones", strings.NewReplacer("path: [fast]", "path: [flink]", "seed: 7", "seed: 7\nnulls: [0.01]").Replace(validSpec),
			`x.yaml:12: nulls: path flink cannot count tombstones (its value-only deserializers drop null values), but cell path=flink/format=json/batch=8192/brokers=1/alloc=go/crc=off/nulls=0.01 has nulls=0.01`},
		{"flink-warm with tombstones", strings.NewReplacer("path: [fast]", "path: [flink-warm]", "seed: 7", "seed: 7\nnulls: [0.01]").Replace(validSpec),
			`x.yaml:12: nulls: path flink-warm cannot count tombstones (its value-only deserializers drop null values), but cell path=flink-warm/format=json/batch=8192/brokers=1/alloc=go/crc=off/nulls=0.01 has nulls=0.01`},
		{"flink-warm with checkpoints", strings.NewReplacer("path: [fast]", "path: [flink-warm]", "seed: 7", "seed: 7\ncheckpoint: [1s]").Replace(validSpec),
			`x.yaml:12: checkpoint: path flink-warm does not checkpoint (its warm-up reads would checkpoint too; path flink measures Flink's checkpoints), but cell path=flink-warm/format=json/batch=8192/brokers=1/alloc=go/crc=off/ckpt=1s would`},
		{"par on a Go path", with("seed", "seed: 7\npar: [auto, 2]"),
			`x.yaml:12: par: par is a Flink job's parallelism; path fast reads at par=auto only, but cell path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/par=2 has par=2 (exclude it)`},
		{"par past the partitions", strings.NewReplacer("path: [fast]", "path: [flink]", "seed: 7", "seed: 7\npartitions: 4\npar: [6]").Replace(validSpec),
			`x.yaml:13: par: par=6 runs more source subtasks than the topic's 4 partitions (the extra ones would idle), cell path=flink/format=json/batch=8192/brokers=1/alloc=go/crc=off/par=6`},
		{"par off the list", strings.NewReplacer("path: [fast]", "path: [flink]", "seed: 7", "seed: 7\npar: [5]").Replace(validSpec),
			`x.yaml:12: par: unknown value "5" (want auto, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32)`},
		{"java on a parity case", strings.NewReplacer("path: [fast]", "path: [java]", "seed: 7", "seed: 7\ncluster: [kafka]\ncase: [committed]").Replace(validSpec),
			`x.yaml:2: path: java only counts records, so it cannot verify cell path=java/format=json/batch=8192/brokers=1/alloc=go/crc=off/cluster=kafka/case=committed (transactions or a parity case); exclude it`},
		{"flink on a shape case", strings.NewReplacer("path: [fast]", "path: [flink]", "seed: 7", "seed: 7\ncase: [uneven]").Replace(validSpec),
			`x.yaml:2: path: flink only counts records, so it cannot verify cell path=flink/format=json/batch=8192/brokers=1/alloc=go/crc=off/case=uneven (transactions or a parity case); exclude it`},
		{"ceiling with a stock decoder", strings.NewReplacer("path: [fast]", "path: [ceiling]", "seed: 7", "seed: 7\ndecoder: [stock]").Replace(validSpec),
			`x.yaml:12: decoder: path ceiling decodes with its own stock route, so cell path=ceiling/format=json/batch=8192/brokers=1/alloc=go/crc=off/decoder=stock cannot choose decoder=stock; exclude it`},
		{"twin on rowwise", strings.NewReplacer("path: [fast]", "path: [rowwise]", "seed: 7", "seed: 7\ndecoder: [none]").Replace(validSpec),
			`x.yaml:12: decoder: decoder none (the consume-only twin) runs on the shallow, fast and franz paths only, but cell path=rowwise/format=json/batch=8192/brokers=1/alloc=go/crc=off/decoder=none is path rowwise`},
		{"twin checkpointing", with("seed", "seed: 7\ndecoder: [none]\ncheckpoint: [1s]"),
			`x.yaml:12: decoder: decoder none only counts what it drains, so it cannot checkpoint or read a special case, but cell path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/decoder=none/ckpt=1s does`},
		{"wake with checkpoints", with("seed", "seed: 7\ncheckpoint: 1s\nwake: 20ms"),
			`x.yaml:13: wake: only a plain bounded or live cell of a Go path wakes its reader (no reference path, checkpoint, parity case or maxrate), but cell path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/wake=20ms/ckpt=1s would`},
		{"pause with wake", with("seed", "seed: 7\nwake: 20ms\npause: 50ms"),
			`x.yaml:13: pause: a pause cell wakes its reader at its pause interval, but cell path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/wake=20ms/pause=50ms has a wake interval too`},
		{"bad wake", with("seed", "seed: 7\nwake: often"),
			`x.yaml:12: wake: want a positive duration like 90s or off, got "often"`},
		{"java checkpointing", strings.NewReplacer("path: [fast]", "path: [java]", "seed: 7", "seed: 7\ncluster: [kafka]\ncheckpoint: [off, 1s]").Replace(validSpec),
			`x.yaml:13: checkpoint: path java cannot checkpoint (it only counts records), but cell path=java/format=json/batch=8192/brokers=1/alloc=go/crc=off/cluster=kafka/ckpt=1s does`},
		{"embedded brokers over the bound", with("brokers", "brokers: [3, 10]"),
			`x.yaml:5: brokers: 10 brokers is over the embedded cluster's bound of 9 (cell path=fast/format=json/batch=8192/brokers=10/alloc=go/crc=off)`},
		// broker_kill (checkBrokerKill): only cells that can lose a broker
		// mid-cell may be selected.
		{"broker kill on one broker", with("seed", "seed: 7\ncluster: [kafka]\nbroker_kill: {path: fast}"),
			`x.yaml:13: broker_kill: selects path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/cluster=kafka/fault=kill, but a broker can only be killed on cluster kafka with 3 or more brokers`},
		{"broker kill off cluster kafka", strings.NewReplacer("brokers: [1]", "brokers: [3]", "seed: 7", "seed: 7\ncluster: [kafka, embedded]\nbroker_kill: {brokers: 3, path: fast}").Replace(validSpec),
			`x.yaml:13: broker_kill: selects path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off/fault=kill, but a broker can only be killed on cluster kafka with 3 or more brokers`},
		{"broker kill on a reference path", strings.NewReplacer("path: [fast]", "path: [fast, java]", "brokers: [1]", "brokers: [3]", "seed: 7", "seed: 7\ncluster: [kafka]\nbroker_kill: {path: java}").Replace(validSpec),
			`x.yaml:13: broker_kill: selects path=java/format=json/batch=8192/brokers=3/alloc=go/crc=off/cluster=kafka/fault=kill, but path java cannot be told when it is mid-cell (use a Go path)`},
		{"broker kill selecting nothing", strings.NewReplacer("brokers: [1]", "brokers: [3]", "seed: 7", "seed: 7\ncluster: [kafka]\nbroker_kill: {batch: 1024}").Replace(validSpec),
			`x.yaml:13: broker_kill: selects no cell of the expansion ({batch=1024})`},
		{"broker kill unknown value", strings.NewReplacer("brokers: [1]", "brokers: [3]", "seed: 7", "seed: 7\ncluster: [kafka]\nbroker_kill: {path: spark}").Replace(validSpec),
			`x.yaml:13: broker_kill.path: unknown value "spark" (want rowwise, shallow, fast, franz, java, java-perf, flink, flink-warm, ceiling)`},
		{"broker kill with checkpoints", strings.NewReplacer("brokers: [1]", "brokers: [3]", "seed: 7", "seed: 7\ncluster: [kafka]\ncheckpoint: 1s\nbroker_kill: {path: fast}").Replace(validSpec),
			`x.yaml:14: broker_kill: selects path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off/cluster=kafka/ckpt=1s/fault=kill, but a broker kill cell cannot also checkpoint (rung refuses it; checkpoint is not an axis to exclude)`},
		{"too many cells", strings.NewReplacer("batch: [8192]", "batch: ["+intRange(1, 10001)+"]", "format: [json]", "format: [json, avro, protobuf, csv, raw]",
			"path: [fast]", "path: [rowwise, shallow, fast, franz]").Replace(validSpec),
			`x.yaml:1: spec: the axes multiply to more than 200000 cells (the lab's bound on one spec)`},
		{"too many child runs", strings.NewReplacer("batch: [8192]", "batch: ["+intRange(1, 998)+"]", "repetitions: 2", "repetitions: 1000\nwarmup: 1").Replace(validSpec),
			`x.yaml:9: repetitions: 998 cells plus the A/A pair over 1001 rounds are 1001000 child runs, more than the lab's bound of 1000000`},
		{"not a mapping", "- a\n- b\n",
			`x.yaml:1: spec: want a mapping of fields, got a list`},
		{"empty", "",
			`x.yaml: empty spec`},
		{"yaml syntax", "path: [fast\n",
			`x.yaml:1: did not find expected ',' or ']'`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseSpec("x.yaml", []byte(c.src))
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
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
			var se *SpecError
			if !errors.As(err, &se) || se.File != "x.yaml" || !strings.HasPrefix(c.want, se.Pos()+": ") {
				t.Errorf("error %v is not a *SpecError at the position it names (%+v)", err, se)
			}
		})
	}
}

func TestLoadSpecMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.yaml")
	_, err := LoadSpec(path)
	var se *SpecError
	if err == nil || err.Error() != path+": cannot read the spec: no such file or directory" || !errors.As(err, &se) || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v", err)
	}
}

// TestShippedSpecs loads every spec under specs/ and checks the promises
// docs/spec.md makes about each.
func TestShippedSpecs(t *testing.T) {
	files, err := filepath.Glob("specs/*.yaml")
	if err != nil || len(files) < 4 {
		t.Fatalf("specs: %v %v", files, err)
	}
	specs := map[string]*Spec{}
	for _, f := range files {
		s, err := LoadSpec(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := NewSchedule(s); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		specs[filepath.Base(f)] = s
	}
	smoke := specs["smoke.yaml"]
	if smoke == nil || !smoke.Covering || smoke.Records > 100000 || len(smoke.Checkpoint) != 1 || smoke.Checkpoint[0] <= 0 || smoke.Failures < 1 {
		t.Fatalf("smoke: %+v", smoke)
	}
	cells, _ := Expand(smoke)
	if missing := uncovered(smoke, cells); len(missing) > 0 {
		t.Errorf("smoke does not cover %v", missing)
	}
	all := knownAxisValues()
	for _, a := range cell.Axes() {
		if a == cell.Batch || a == cell.Brokers || slices.Contains(cell.LiveAxes(), a) {
			continue // open axes
		}
		if got := axisValuesOf(smoke, a); len(got) != len(all[a]) {
			t.Errorf("smoke axis %s = %v, want every value %v", a, got, all[a])
		}
	}
	p := specs["paths.yaml"]
	if p == nil {
		t.Fatal("no paths.yaml")
	}
	if strings.Join(p.Path, ",") != "rowwise,shallow,fast,franz" || strings.Join(p.Format, ",") != "raw,json" ||
		len(p.Brokers) != 1 || p.Brokers[0] != 3 || p.Records != 2000000 || len(p.Batch) != 1 || p.Batch[0] != 8192 ||
		strings.Join(p.Alloc, ",") != "go" || strings.Join(p.CRC, ",") != "off" || p.Repetitions < 5 || p.Warmup != 1 {
		t.Errorf("paths.yaml: %+v", p)
	}
	for _, n := range []string{"default.yaml", "full.yaml"} {
		if specs[n] == nil {
			t.Errorf("missing %s", n)
		}
	}
	ref := specs["references.yaml"]
	if ref == nil {
		t.Fatal("no references.yaml")
	}
	rcells, _ := Expand(ref)
	for _, want := range []string{
		"path=flink/format=json", "path=flink/format=avro", "path=flink/format=protobuf",
		"path=java/format=raw", "path=java-perf/format=raw", "path=ceiling/format=raw",
		"path=fast/format=raw/decoder=none", "path=franz/format=json/decoder=none", "path=shallow/format=avro/decoder=none",
	} {
		for _, cl := range []string{cell.ClusterKafka, cell.ClusterEmbedded} {
			if want == "path=java-perf/format=raw" && cl == cell.ClusterEmbedded {
				continue
			}
			found := slices.ContainsFunc(rcells, func(c cell.Cell) bool {
				m := map[string]string{}
				for _, p := range strings.Split(want, "/") {
					k, v, _ := strings.Cut(p, "=")
					m[k] = v
				}
				m[cell.Cluster] = cl
				return c.Matches(m)
			})
			if !found {
				t.Errorf("references.yaml: no cell %s on %s", want, cl)
			}
		}
	}
	par := specs["parity.yaml"]
	if par == nil {
		t.Fatal("no parity.yaml")
	}
	pcells, _ := Expand(par)
	for _, c := range cell.Cases() {
		if c == cell.CaseDenied {
			continue // real Kafka only: parity-kafka.yaml
		}
		for _, p := range goPaths() {
			if !slices.ContainsFunc(pcells, func(x cell.Cell) bool { return x.Path == p && x.Value(cell.Case) == c }) {
				t.Errorf("parity.yaml: no cell path=%s case=%s", p, c)
			}
		}
	}
	for _, k := range []string{cell.Nulls, cell.Txn, cell.Compression} {
		vs := cell.Values(k)
		if k == cell.Nulls {
			vs = []string{cell.NullsNone, cell.NullsOne}
		}
		for _, v := range vs {
			if !slices.ContainsFunc(pcells, func(x cell.Cell) bool { return x.Value(k) == v }) {
				t.Errorf("parity.yaml: no cell %s=%s", k, v)
			}
		}
	}
}

func knownAxisValues() map[string][]string {
	return map[string][]string{
		cell.Path: goPaths(), cell.Format: cell.Formats(), cell.Alloc: cell.Allocs(),
		cell.CRC: cell.CRCs(), cell.Cluster: {"embedded"}, cell.Compression: cell.Compressions(),
		// 16 KiB records would make the smoke corpus 1.6 GB
		cell.Size: {cell.SizeNatural, cell.Size1KiB}, cell.Nulls: cell.NullShares(), cell.Txn: cell.Txns(),
		cell.Keyed: cell.KeySettings(),
		// the cases are parity.yaml's (case denied: parity-kafka.yaml)
		cell.Case: {cell.CaseNone},
		// decoder=stock runs on two paths and three formats: decoders.yaml
		cell.Decoder: {cell.DecoderLab},
		cell.Mode:    cell.Modes(),
		// the Go paths read at par=auto only; Flink's parallelism is
		// references.yaml's
		cell.Par: {cell.ParAuto},
	}
}

func axisValuesOf(s *Spec, axis string) []string {
	c := product(s)
	seen := map[string]bool{}
	var out []string
	for _, x := range c {
		if v := x.Value(axis); !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

func TestSpecDocExists(t *testing.T) {
	if _, err := os.Stat("../docs/spec.md"); err != nil {
		t.Errorf("docs/spec.md missing: %v", err)
	}
}

// intRange is "lo, lo+1, ..., hi" for a YAML list.
func intRange(lo, hi int) string {
	var b strings.Builder
	for i := lo; i <= hi; i++ {
		if i > lo {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(i))
	}
	return b.String()
}

// TestEveryClosedAxisHasASpecField: a closed axis added to the vocabulary
// needs a Spec field, or specs could not name it.
func TestEveryClosedAxisHasASpecField(t *testing.T) {
	var s Spec
	for _, k := range cell.Axes() {
		if cell.Values(k) != nil && s.closedAxis(k) == nil {
			t.Errorf("axis %s has values but no Spec field", k)
		}
	}
}

// TestKafkaRecordsBound: a spec on real Kafka alone may read past the
// embedded bound of records; one with an embedded cell may not.
func TestKafkaRecordsBound(t *testing.T) {
	src := "name: big\npath: [fast]\nformat: [raw]\nbatch: [8192]\nbrokers: [1]\nalloc: [go]\ncrc: [off]\n" +
		"cluster: [kafka]\nrecords: 64_000_000\nrepetitions: 1\ntimeout: 600s\nseed: 42\n"
	s, err := ParseSpec("k.yaml", []byte(src))
	if err != nil || s.Records != 64_000_000 {
		t.Fatalf("%v", err)
	}
	if _, err := ParseSpec("k.yaml", []byte(strings.Replace(src, "[kafka]", "[kafka, embedded]", 1))); err == nil || !strings.Contains(err.Error(), "for embedded cells") {
		t.Errorf("64M records with an embedded cell: %v", err)
	}
}

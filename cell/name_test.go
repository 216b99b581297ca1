package cell

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// base is a cell every axis of which is set.
func base() Cell {
	return Cell{Path: PathFast, Format: FormatJSON, Batch: 8192, Brokers: 1, Alloc: AllocGo, Cluster: ClusterEmbedded, Compression: CompressionNone}
}

// variants is every value each part can take, one part changed at a time.
func variants() []Cell {
	var cs []Cell
	add := func(f func(*Cell)) {
		c := base()
		f(&c)
		cs = append(cs, c)
	}
	for _, v := range Paths() {
		add(func(c *Cell) { c.Path = v })
	}
	for _, v := range Formats() {
		add(func(c *Cell) { c.Format = v })
	}
	for _, v := range Allocs() {
		add(func(c *Cell) { c.Alloc = v })
	}
	for _, v := range Clusters() {
		add(func(c *Cell) { c.Cluster = v })
	}
	for _, v := range Compressions() {
		add(func(c *Cell) { c.Compression = v })
	}
	for _, k := range []string{Size, Keyed, Nulls, Txn, Case, Decoder} {
		for _, v := range Values(k) {
			add(func(c *Cell) {
				if err := c.Set(k, v); err != nil {
					panic(err)
				}
			})
		}
	}
	for _, n := range []int{1, 3, 64, 1 << 20} {
		add(func(c *Cell) { c.Batch = n })
		add(func(c *Cell) { c.Brokers = n })
	}
	for _, d := range []time.Duration{time.Millisecond, 250 * time.Millisecond, time.Second, 90 * time.Second} {
		add(func(c *Cell) { c.Ckpt = d })
		add(func(c *Cell) { c.Wake = d })
		add(func(c *Cell) { c.Pause = d })
		add(func(c *Cell) { c.Ckpt, c.Commit = d, true })
		add(func(c *Cell) { c.Ckpt, c.Rescale = d, Rescale{From: 3, To: 2} })
		add(func(c *Cell) { c.Discover = d })
		add(func(c *Cell) { c.FetchWait = d })
		add(func(c *Cell) { c.RdkStats = d })
	}
	add(func(c *Cell) { c.Drain = DrainCallback })
	add(func(c *Cell) { c.Drain = DrainBatchQueue })
	add(func(c *Cell) { c.Drain = DrainAhead })
	for _, n := range []int{1, 262144, 1000000} {
		add(func(c *Cell) { c.PartFetch = n })
		add(func(c *Cell) { c.QueueMin = n })
	}
	for _, r := range []int{1, 10_000, 500_000} {
		for _, l := range []time.Duration{time.Microsecond, time.Millisecond, 100 * time.Millisecond} {
			add(func(c *Cell) { c.Mode, c.Rate, c.Linger = ModeLive, r, l })
		}
	}
	add(func(c *Cell) { c.Mode, c.Linger = ModeMaxRate, 10*time.Millisecond })
	add(func(c *Cell) { c.CRC = true })
	add(func(c *Cell) { c.Prof = true })
	add(func(c *Cell) { c.Fault = FaultKill })
	add(func(c *Cell) { c.AA = "a" })
	add(func(c *Cell) { c.AA = "b" })
	return cs
}

// random draws a cell with every part random, from a fixed seed.
func random(r *rand.Rand) Cell {
	pick := func(vs []string) string { return vs[r.IntN(len(vs))] }
	c := Cell{
		Path: pick(Paths()), Format: pick(Formats()), Batch: 1 + r.IntN(1<<20),
		Brokers: 1 + r.IntN(9), Alloc: pick(Allocs()), CRC: r.IntN(2) == 0, Cluster: pick(Clusters()), Compression: pick(Compressions()),
		Txn:  r.IntN(2) == 0,
		Prof: r.IntN(2) == 0,
	}
	if r.IntN(2) == 0 {
		c.Ckpt = time.Duration(1+r.IntN(600_000)) * time.Millisecond
	}
	if r.IntN(2) == 0 {
		c.Wake = time.Duration(1+r.IntN(1000)) * time.Millisecond
	}
	if r.IntN(2) == 0 {
		c.Fault = FaultKill
	}
	if r.IntN(2) == 0 {
		c.PartFetch, c.QueueMin = 1+r.IntN(1<<19), 1+r.IntN(99_999)   // under the lab's settings
		c.FetchWait = time.Duration(1+r.IntN(499)) * time.Millisecond // under the lab's 500ms
		c.RdkStats = time.Duration(10+r.IntN(1000)) * time.Millisecond
	}
	for _, k := range []string{Size, Keyed, Nulls, Case, Decoder} {
		if err := c.Set(k, pick(Values(k))); err != nil {
			panic(err)
		}
	}
	if r.IntN(3) > 0 {
		c.AA = pick([]string{"a", "b"})
	}
	if r.IntN(2) == 0 {
		c.Mode, c.Rate, c.Linger = ModeLive, 1+r.IntN(1_000_000), time.Duration(1+r.IntN(1000))*time.Millisecond
	}
	return c
}

// TestRoundTrip: Parse(c.Name()) == c for every value of every part, and
// for random combinations.
func TestRoundTrip(t *testing.T) {
	cs := variants()
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		cs = append(cs, random(r))
	}
	for _, c := range cs {
		name := c.Name()
		got, err := Parse(name)
		if err != nil {
			t.Fatalf("Parse(%q): %v", name, err)
		}
		if got != c {
			t.Fatalf("Parse(%q) = %+v, want %+v", name, got, c)
		}
		if again := got.Name(); again != name {
			t.Fatalf("Name after Parse = %q, want %q", again, name)
		}
		dims := Dims(name)
		for _, k := range Keys() {
			if v, ok := dims[k]; ok && v != c.Value(k) {
				t.Fatalf("%s: Dims[%s] = %q, Value = %q", name, k, v, c.Value(k))
			}
		}
		if !c.Matches(dims) {
			t.Fatalf("%s does not match its own dims %v", name, dims)
		}
	}
}

func TestNameShape(t *testing.T) {
	c := base()
	if got, want := c.Name(), "path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off"; got != want {
		t.Fatalf("Name = %q, want %q", got, want)
	}
	c.Cluster, c.Compression, c.CRC, c.Ckpt, c.Prof, c.Fault, c.AA = ClusterKafka, CompressionZstd, true, time.Second, true, FaultKill, "b"
	want := "path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=on/cluster=kafka/compression=zstd/ckpt=1s/prof=on/fault=kill/aa=b"
	if got := c.Name(); got != want {
		t.Fatalf("Name = %q, want %q", got, want)
	}
	live := base()
	live.Mode, live.Rate, live.Linger = ModeLive, 100_000, 10*time.Millisecond
	if got, want := live.Name(), "path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/mode=live/rate=100000/linger=10ms"; got != want || !live.Live() || base().Live() {
		t.Fatalf("Name = %q, want %q (Live %v)", got, want, live.Live())
	}
	if c.Value(Cluster) != ClusterKafka || base().Value(Cluster) != ClusterEmbedded || (Cell{}).Value(Cluster) != ClusterEmbedded {
		t.Fatal("Value(cluster) does not report embedded for the default")
	}
}

func TestParseRefuses(t *testing.T) {
	ok := "path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off"
	for _, tc := range []struct{ name, want string }{
		{"", "empty"},
		{"path=fast format=json", "white space"},
		{"path=fast/format", `part "format" is not key=value`},
		{ok + "/path=fast", `key "path" appears twice`},
		{ok + "/colour=red", `unknown key "colour"`},
		{"format=json/path=fast/batch=8192/brokers=1/alloc=go/crc=off", `key "path" out of order`},
		{"path=fast/format=json/batch=8192/alloc=go/crc=off", "no brokers part"},
		{"path=slow/format=json/batch=8192/brokers=1/alloc=go/crc=off", "unknown path"},
		{"path=fast/format=xml/batch=8192/brokers=1/alloc=go/crc=off", "unknown format"},
		{"path=fast/format=json/batch=0/brokers=1/alloc=go/crc=off", "batch=0 is not a positive integer"},
		{"path=fast/format=json/batch=08/brokers=1/alloc=go/crc=off", "batch=08 is not a positive integer"},
		{"path=fast/format=json/batch=8192/brokers=1/alloc=tc/crc=off", "unknown alloc"},
		{"path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=yes", "unknown crc"},
		{ok + "/cluster=embedded", "never written"},
		{ok + "/compression=none", "never written"},
		{ok + "/compression=brotli", "unknown compression"},
		{ok + "/size=100", "never written"},
		{ok + "/size=2048", "unknown size"},
		{ok + "/nulls=0", "never written"},
		{ok + "/nulls=0.010", "unknown nulls"},
		{ok + "/txn=off", "never written"},
		{ok + "/keys=off", "never written"},
		{ok + "/decoder=lab", "never written"},
		{ok + "/decoder=goccy", "unknown decoder"},
		{ok + "/keys=yes", "unknown keys"},
		{ok + "/txn=on", "unknown txn"},
		{ok + "/case=none", "never written"},
		{ok + "/case=hang", "unknown case"},
		{ok + "/case=deleted/txn=aborts", `key "txn" out of order`},
		{ok + "/ckpt=1000ms", "not written as 1s"},
		{ok + "/ckpt=-1s", "not a positive duration"},
		{ok + "/wake=20000us", "not written as 20ms"},
		{ok + "/ckpt=1s/wake=20ms", "out of order"},
		{ok + "/pause=1s/wake=20ms", "out of order"},
		{ok + "/commit=off", "unknown commit"},
		{ok + "/rescale=off", "never written"},
		{ok + "/discover=0s", "not a positive duration"},
		{ok + "/ckpt=1s/discover=1s", "out of order"},
		{ok + "/rescale=3to3", "keeps the parallelism"},
		{ok + "/rescale=03to2", "not <from>to<to>"},
		{ok + "/rescale=3to0", "subtasks must be 1..64"},
		{ok + "/rescale=2to3/commit=on", "out of order"},
		{ok + "/prof=off", "unknown prof"},
		{ok + "/aa=c", "unknown aa"},
		{ok + "/mode=bounded", "never written"},
		{ok + "/mode=stream", "unknown mode"},
		{ok + "/mode=live/rate=0/linger=1ms", "never written"},
		{ok + "/mode=live/rate=1e5/linger=1ms", "rate=1e5 is not a positive integer"},
		{ok + "/mode=live/rate=1000/linger=1000ms", "not written as 1s"},
		{ok + "/mode=live/linger=1ms", "needs rate and linger"},
		{ok + "/mode=live/rate=1000", "needs rate and linger"},
		{ok + "/rate=1000/linger=1ms", "parts of a mode=live or maxrate cell only"},
		{ok + "/mode=maxrate/rate=1000/linger=1ms", "searches for its rate: it has no rate part"},
		{ok + "/mode=maxrate", "needs a linger part"},
		{ok + "/linger=1ms/mode=live/rate=1000", `out of order`},
	} {
		_, err := Parse(tc.name)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.HasPrefix(err.Error(), "cell: ") {
			t.Errorf("Parse(%q) = %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
	if _, err := Parse(""); !errors.Is(err, ErrName) {
		t.Errorf("Parse(\"\") = %v, want ErrName", err)
	}
}

func TestSplitAcceptsForeignKeys(t *testing.T) {
	ps, err := Split("path=fast/decoder=goccy/x=")
	if err != nil || len(ps) != 3 || ps[1] != (Part{"decoder", "goccy"}) || ps[2] != (Part{"x", ""}) {
		t.Fatalf("Split = %v, %v", ps, err)
	}
	if d := Dims("path=fast/odd/aa=a"); d["odd"] != "" || d[AA] != "a" || !IsAA("path=fast/aa=a") || IsAA("path=fast") {
		t.Fatalf("Dims = %v", d)
	}
}

func TestOrder(t *testing.T) {
	for _, tc := range []struct {
		key, a, b string
		less      bool
	}{
		{Batch, "1024", "8192", true},
		{Batch, "8192", "1024", false},
		{Path, PathRowwise, PathFast, true},
		{Path, PathFranz, PathJava, true},
		{Path, PathJava, PathCeiling, true},
		{Path, PathCeiling, "zzz", true},
		{Path, "aaa", PathRowwise, false},
		{Format, "avro", "json", true},
		{Linger, "1ms", "10ms", true},
		{Linger, "100ms", "10ms", false},
		{Linger, "500us", "1ms", true},
		{Rate, "10000", "500000", true},
		{Par, ParAuto, "1", true},
		{Par, "2", "12", true},
	} {
		if got := Less(tc.key, tc.a, tc.b); got != tc.less {
			t.Errorf("Less(%s, %s, %s) = %v", tc.key, tc.a, tc.b, got)
		}
	}
	if r, ok := KeyRank(AA); !ok || r != len(Keys())-1 {
		t.Errorf("KeyRank(aa) = %d, %v", r, ok)
	}
	if _, ok := KeyRank("codec"); ok {
		t.Error("KeyRank knows codec")
	}
	for _, p := range Paths() {
		if want := p == PathJava || p == PathJavaPerf || p == PathFlink || p == PathFlinkWarm || p == PathCeiling; CountingPath(p) != want {
			t.Errorf("CountingPath(%s) = %v", p, !want)
		}
	}
	if Values(Batch) != nil || len(Values(Path)) != 9 {
		t.Error("Values")
	}
}

// TestPar: a Flink cell's parallelism is a part of its name only when it
// is not auto, Parse reads it back, and a value off Pars is refused.
func TestPar(t *testing.T) {
	c := Cell{Path: PathFlinkWarm, Format: FormatJSON, Batch: 8192, Brokers: 3, Alloc: AllocGo, Cluster: ClusterKafka, Par: "2"}
	const want = "path=flink-warm/format=json/batch=8192/brokers=3/alloc=go/crc=off/cluster=kafka/par=2"
	if got := c.Name(); got != want {
		t.Fatalf("Name = %s, want %s", got, want)
	}
	back, err := Parse(want)
	if err != nil || back.Par != "2" || back.ParN() != 2 {
		t.Fatalf("Parse(%s) = %+v, %v", want, back, err)
	}
	if _, err := Parse("path=flink/format=json/batch=8192/brokers=3/alloc=go/crc=off/par=auto"); err == nil {
		t.Error("par=auto (the default) parsed as written")
	}
	auto, err := Parse("path=flink/format=json/batch=8192/brokers=3/alloc=go/crc=off")
	if err != nil || auto.Par != "" || auto.ParN() != 0 || auto.Value(Par) != ParAuto {
		t.Fatalf("no par part: %+v, %v", auto, err)
	}
	if err := auto.Set(Par, "2"); err != nil || !strings.HasSuffix(auto.Name(), "/par=2") {
		t.Errorf("Set(par, 2): %v, %s", err, auto.Name())
	}
	if _, err := Parse("path=flink/format=json/batch=8192/brokers=3/alloc=go/crc=off/par=5"); err == nil {
		t.Error("par=5 (not in Pars) parsed")
	}
}

// TestLabBufferingNeverWritten holds the librdkafka buffering parts to one
// spelling: the lab's own setting is no part at all, whether it comes from
// a spec (Set) or a name (Parse refuses it). The drain is not one of them:
// a cell naming none runs the fast path's default for its read, which
// drain=callback overrides (TestFastDrain).
func TestLabBufferingNeverWritten(t *testing.T) {
	base := "path=fast/format=raw/batch=8192/brokers=3/alloc=go/crc=off"
	for _, kv := range [][2]string{{PartFetch, "1048576"}, {QueueMin, "100000"}, {FetchWait, "500ms"}} {
		var c Cell
		if err := c.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
		if v := c.Value(kv[0]); v != "" {
			t.Errorf("Set(%s, %s): Value = %q, want the part left out", kv[0], kv[1], v)
		}
		if _, err := Parse(base + "/" + kv[0] + "=" + kv[1]); err == nil || !strings.Contains(err.Error(), "never written") {
			t.Errorf("Parse with %s=%s: err = %v, want a refusal", kv[0], kv[1], err)
		}
	}
	c, err := Parse(base + "/partfetch=262144/queuemin=1000000/fetchwait=10ms/rdkstats=100ms")
	if err != nil {
		t.Fatal(err)
	}
	if c.PartFetch != 262144 || c.QueueMin != 1000000 || c.FetchWait != 10*time.Millisecond || c.RdkStats != 100*time.Millisecond {
		t.Errorf("Parse: %+v", c)
	}
}

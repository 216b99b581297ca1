package resultstest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// Package prefixes of the functions in hand-written stacks.
const (
	Workloads = "github.com/fastpathlab/fplab/workloads."
	Source    = "github.com/fastpathlab/fplab/source."
	Rung      = "github.com/fastpathlab/fplab/ladder/rung."
	Array     = "github.com/apache/arrow-go/v18/arrow/array."
	Memory    = "github.com/apache/arrow-go/v18/arrow/memory."
	Bitutil   = "github.com/apache/arrow-go/v18/arrow/bitutil."
	Kgo       = "github.com/twmb/franz-go/pkg/kgo."
	Kmsg      = "github.com/twmb/franz-go/pkg/kmsg."
	Kafka     = "github.com/confluentinc/confluent-kafka-go/v2/kafka."
)

// Sample is one hand-written sample: its stack leaf first, one value per
// sample type. An entry "a+b" is one location where a is inlined into b;
// "?" is a location without symbols.
type Sample struct {
	Stack  []string
	Values []int64
}

// Profile makes a valid profile with the given sample types ("type/unit")
// and samples, lasting 2 s.
func Profile(t testing.TB, types []string, samples []Sample) *profile.Profile {
	t.Helper()
	p := &profile.Profile{DurationNanos: 2e9}
	for _, ty := range types {
		typ, unit, _ := strings.Cut(ty, "/")
		p.SampleType = append(p.SampleType, &profile.ValueType{Type: typ, Unit: unit})
	}
	funcs := map[string]*profile.Function{}
	fn := func(name string) *profile.Function {
		if f, ok := funcs[name]; ok {
			return f
		}
		f := &profile.Function{ID: uint64(len(p.Function) + 1), Name: name, SystemName: name}
		funcs[name] = f
		p.Function = append(p.Function, f)
		return f
	}
	for _, s := range samples {
		ps := &profile.Sample{Value: s.Values}
		for _, entry := range s.Stack {
			loc := &profile.Location{ID: uint64(len(p.Location) + 1), Address: uint64(0x1000 + len(p.Location))}
			if entry != "?" {
				for _, name := range strings.Split(entry, "+") {
					loc.Line = append(loc.Line, profile.Line{Function: fn(name), Line: 1})
				}
			}
			p.Location = append(p.Location, loc)
			ps.Location = append(ps.Location, loc)
		}
		p.Sample = append(p.Sample, ps)
	}
	if err := p.CheckValid(); err != nil {
		t.Fatalf("test profile invalid: %v", err)
	}
	return p
}

// CPUProfile is a small CPU profile of a fast-path cell (values in ns):
// the cgo drain, JSON decode, arrow building, verification, GC and the
// scheduler.
func CPUProfile(t testing.TB) *profile.Profile {
	const wl, src, arr, mem, rung = Workloads, Source, Array, Memory, Rung
	ns := func(ms int64) []int64 { return []int64{ms / 10, ms * 1e6 / 10} }
	return Profile(t, []string{"samples/count", "cpu/nanoseconds"}, []Sample{
		{[]string{"runtime.cgocall", src + "_Cfunc_fp_drain_run", src + "(*drain).run", src + "(*fastReader).drainOnce"}, ns(400)},
		{[]string{"runtime.memmove", wl + "scanJSONString", wl + "(*jsonCodec).parse", wl + "(*columnar).Append", src + "(*fastReader).decodeRun"}, ns(250)},
		{[]string{wl + "(*jsonCodec).parse", wl + "(*columnar).Append"}, ns(150)},
		{[]string{mem + "(*GoAllocator).Allocate", arr + "(*Int64Builder).Append+" + wl + "(*jsonCodec).parse"}, ns(120)},
		{[]string{arr + "(*Int64).Value+" + wl + "valueHash", wl + "RowHash", rung + "(*verifier).check"}, ns(90)},
		{[]string{wl + "foldColumn", wl + "BatchChecksum", rung + "(*verifier).check"}, ns(60)},
		{[]string{"runtime.scanobject", "runtime.gcDrain", "runtime.gcBgMarkWorker"}, ns(80)},
		{[]string{"runtime.gcDrainN", "runtime.gcAssistAlloc1", "runtime.gcAssistAlloc", "runtime.mallocgc", wl + "(*scratch).bytes"}, ns(20)},
		{[]string{"runtime.futex", "runtime.futexsleep", "runtime.findRunnable", "runtime.schedule"}, ns(40)},
		{[]string{src + "(*assembler).consume", src + "(*fastReader).decodeRun"}, ns(30)},
	})
}

// AllocsProfile is a small heap profile.
func AllocsProfile(t testing.TB) *profile.Profile {
	const wl, src, arr, mem, kgo, ckafk = Workloads, Source, Array, Memory, Kgo, Kafka
	v := func(space, objects int64) []int64 { return []int64{objects, space, 0, 0} }
	return Profile(t, []string{"alloc_objects/count", "alloc_space/bytes", "inuse_objects/count", "inuse_space/bytes"}, []Sample{
		{[]string{mem + "(*GoAllocator).Allocate", arr + "(*bufBuilder).resize", arr + "(*Int64Builder).Reserve"}, v(48<<20, 1200)},
		{[]string{ckafk + "(*handle).newMessageFromC", ckafk + "(*Consumer).Poll"}, v(12<<20, 250000)},
		{[]string{wl + "(*scratch).bytes", wl + "(*jsonCodec).parse"}, v(1<<20, 4000)},
		{[]string{kgo + "(*cursorOffsetNext).processRespPartition"}, v(0, 0)},
		{[]string{src + "(*assembler).emit"}, v(512<<10, 800)},
	})
}

// FranzCPUProfile is another cell's CPU profile: the franz-go path, with
// more decode and GC and no cgo.
func FranzCPUProfile(t testing.TB) *profile.Profile {
	const wl, arr, mem, rung, kgo, kmsg = Workloads, Array, Memory, Rung, Kgo, Kmsg
	ns := func(ms int64) []int64 { return []int64{ms / 10, ms * 1e6 / 10} }
	return Profile(t, []string{"samples/count", "cpu/nanoseconds"}, []Sample{
		{[]string{"runtime.memmove", "github.com/twmb/franz-go/pkg/kbin.(*Reader).Bytes", kmsg + "(*FetchResponse).ReadFrom", kgo + "(*broker).handleResp"}, ns(300)},
		{[]string{"hash/crc32.castagnoliSSE42", "hash/crc32.Update", kgo + "(*cursorOffsetNext).processRecordBatch"}, ns(100)},
		{[]string{"runtime.memmove", wl + "scanJSONString", wl + "(*jsonCodec).parse", wl + "(*columnar).Append"}, ns(500)},
		{[]string{mem + "(*GoAllocator).Allocate", arr + "(*Int64Builder).Append+" + wl + "(*jsonCodec).parse"}, ns(120)},
		{[]string{wl + "foldColumn", wl + "BatchChecksum", rung + "(*verifier).check"}, ns(150)},
		{[]string{"runtime.scanobject", "runtime.gcDrain", "runtime.gcBgMarkWorker"}, ns(200)},
		{[]string{"runtime.futex", "runtime.futexsleep", "runtime.findRunnable", "runtime.schedule"}, ns(30)},
	})
}

// WriteProfile writes p to path (its directory created if need be), where
// a ladder run with --profile keeps a cell's profile.
func WriteProfile(t testing.TB, path string, p *profile.Profile) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(f); err != nil {
		f.Close()
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

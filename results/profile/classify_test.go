package profile

import (
	"strings"
	"testing"
)

func frames(names ...string) []Frame {
	out := make([]Frame, len(names))
	for i, n := range names {
		out[i] = Frame{Func: n}
	}
	return out
}

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		what  string
		stack []Frame
		want  Bucket
		by    string // deciding frame's function
	}{
		{"cgo crossing of the fast drain", frames("runtime.cgocall", src+"_Cfunc_fp_drain_run", src+"(*drain).run"), BucketCgo, "runtime.cgocall"},
		{"C frame on a Go thread", frames("rd_kafka_q_serve", "rd_kafka_consume_batch_queue", "runtime.asmcgocall"), BucketCgo, "rd_kafka_q_serve"},
		{"GCC clone", frames("rd_kafka_msg_new0.cold", src+"(*drain).run"), BucketCgo, "rd_kafka_msg_new0.cold"},
		{"unsymbolized PC", frames("", "runtime.asmcgocall"), BucketCgo, ""},
		{"C source file", []Frame{{Func: "fp.drain_helper", File: "/work/main/source/drain.c"}}, BucketCgo, "fp.drain_helper"},
		{"external code pseudo-frame", frames("runtime._ExternalCode"), BucketCgo, "runtime._ExternalCode"},
		{"confluent-kafka-go allocation", frames("runtime.mallocgc", "runtime.makeslice", ckafk+"(*handle).newMessageFromC", ckafk+"(*Consumer).Poll", src+"(*rowwiseReader).Next"), BucketCgo, ckafk + "(*handle).newMessageFromC"},
		{"memmove under a scanner is decode", frames("runtime.memmove", wl+"scanJSONString", wl+"(*jsonCodec).parse"), BucketDecode, wl + "scanJSONString"},
		{"bulk raw decode", frames(wl+"rawColumnar.AppendBulk", src+"(*fastReader).decodeRun"), BucketDecode, wl + "rawColumnar.AppendBulk"},
		{"arrow reader under the checksum is verify", frames(arr+"(*Int64).Value", wl+"valueHash", wl+"RowHash"), BucketVerify, wl + "valueHash"},
		{"bitutil under a reader under the checksum", frames(bitu+"BitIsSet", arr+"(*array).IsNull", wl+"foldColumn", wl+"BatchChecksum"), BucketVerify, wl + "foldColumn"},
		{"buffer bytes under the checksum", frames(mem+"(*Buffer).Bytes", wl+"BatchChecksum"), BucketVerify, wl + "BatchChecksum"},
		{"rung verifier", frames(rung+"(*verifier).check", rung+"(*verifyingReader).Next"), BucketVerify, rung + "(*verifier).check"},
		{"expected hashes from the generator", frames("runtime.memmove", wl+"(*rng).letters", wl+"generate", wl+"(*Corpus).hash"), BucketVerify, wl + "(*rng).letters"},
		{"allocation under a builder is arrow", frames("runtime.memclrNoHeapPointers", "runtime.mallocgc", "runtime.makeslice", mem+"(*GoAllocator).Allocate", arr+"(*bufBuilder).resize", arr+"(*Int64Builder).Append", wl+"(*jsonCodec).parse"), BucketArrow, mem + "(*GoAllocator).Allocate"},
		{"bitutil under a builder is arrow", frames(bitu+"SetBit", arr+"(*BooleanBuilder).Append"), BucketArrow, arr + "(*BooleanBuilder).Append"},
		{"record batch constructor", frames(arr+"NewRecordBatch", wl+"(*builders).NewRecordBatch"), BucketArrow, arr + "NewRecordBatch"},
		{"franz-go fetch decode", frames("runtime.memmove", "github.com/twmb/franz-go/pkg/kbin.(*Reader).Bytes", kmsg+"(*FetchResponse).ReadFrom", kgo+"(*broker).handleResp"), BucketClient, "github.com/twmb/franz-go/pkg/kbin.(*Reader).Bytes"},
		{"crc under franz-go is client", frames("hash/crc32.castagnoliSSE42", "hash/crc32.Update", kgo+"(*cursorOffsetNext).processRecordBatch"), BucketClient, kgo + "(*cursorOffsetNext).processRecordBatch"},
		{"background mark worker", frames("runtime.scanobject", "runtime.gcDrain", "runtime.gcBgMarkWorker"), BucketGC, "runtime.scanobject"},
		{"assist inside decode is gc", frames("runtime.gcDrainN", "runtime.gcAssistAlloc1", "runtime.gcAssistAlloc", "runtime.mallocgc", wl+"(*scratch).bytes"), BucketGC, "runtime.gcDrainN"},
		{"sweep on refill is gc", frames("runtime.(*sweepLocked).sweep", "runtime.(*mcentral).cacheSpan", "runtime.(*mcache).refill", "runtime.mallocgc", kgo+"(*Client).PollFetches"), BucketGC, "runtime.(*sweepLocked).sweep"},
		{"write barrier flush", frames("runtime.findObject", "runtime.wbBufFlush1", "runtime.wbBufFlush", "runtime.gcWriteBarrier2", wl+"(*columnar).Append"), BucketGC, "runtime.wbBufFlush1"},
		{"GC pseudo-frame", frames("runtime._GC"), BucketGC, "runtime._GC"},
		{"scavenger", frames("runtime.sysUnused", "runtime.(*pageAlloc).scavengeOne", "runtime.bgscavenge"), BucketGC, "runtime.(*pageAlloc).scavengeOne"},
		{"gcd is not gc", frames("runtime.gcd"), BucketRuntime, "runtime.gcd"},
		{"scheduler", frames("runtime.futex", "runtime.futexsleep", "runtime.findRunnable", "runtime.schedule"), BucketRuntime, "runtime.futex"},
		{"map access in the assembler", frames("runtime.mapaccess2_fast32", src+"(*assembler).consume"), BucketRuntime, "runtime.mapaccess2_fast32"},
		{"syscall", frames("internal/runtime/syscall.Syscall6", "syscall.Syscall", "os.(*File).Write"), BucketRuntime, "internal/runtime/syscall.Syscall6"},
		{"system pseudo-frame", frames("runtime._System"), BucketRuntime, "runtime._System"},
		{"assembler's own code", frames(src+"(*assembler).consume", src+"(*fastReader).decodeRun"), BucketOther, src + "(*assembler).consume"},
		{"encoder is not decode", frames(wl+"appendJSONString", wl+"(*jsonCodec).Encode", "github.com/fastpathlab/fplab/clusters.load"), BucketOther, wl + "appendJSONString"},
		{"profiler writer", frames("compress/flate.(*compressor).deflate", "runtime/pprof.(*profileBuilder).flush"), BucketOther, "compress/flate.(*compressor).deflate"},
	} {
		b, at := NewClassifier().Classify(c.stack)
		by := "<none>"
		if at >= 0 {
			by = c.stack[at].Func
		}
		if b != c.want || by != c.by {
			t.Errorf("%s: %v by %q, want %v by %q", c.what, b, by, c.want, c.by)
		}
	}
}

func TestClassifyEmpty(t *testing.T) {
	if b, at := NewClassifier().Classify(nil); b != BucketOther || at != -1 {
		t.Errorf("empty stack: %v %d, want other -1", b, at)
	}
}

// Every rule must say what it matches, and every owner bucket but
// runtime/other (the fallbacks) must have a rule.
func TestRuleTables(t *testing.T) {
	has := map[Bucket]bool{}
	for _, r := range append(GCRules(), OwnerRules()...) {
		if strings.TrimSpace(r.What) == "" || r.Match == nil {
			t.Errorf("rule for %v has no What or Match", r.Bucket)
		}
		if !r.Pass {
			has[r.Bucket] = true
		}
	}
	for _, b := range AllBuckets() {
		if b == BucketRuntime || b == BucketOther {
			continue
		}
		if !has[b] {
			t.Errorf("no rule charges %v", b)
		}
	}
	for _, r := range GCRules() {
		if r.Pass || r.Bucket != BucketGC {
			t.Errorf("GC table holds a %v rule (pass %v)", r.Bucket, r.Pass)
		}
	}
}

func TestBucketNames(t *testing.T) {
	seen := map[string]bool{}
	for _, b := range AllBuckets() {
		n := b.String()
		if n == "" || seen[n] || strings.HasPrefix(n, "bucket(") {
			t.Errorf("bucket %d: bad or duplicate name %q", int(b), n)
		}
		seen[n] = true
	}
	if got := Bucket(99).String(); got != "bucket(99)" {
		t.Errorf("out of range bucket: %q", got)
	}
}

// Go assembly has .s files and is Go, not C: runtime.memmove in a real
// profile names memmove_amd64.s.
func TestGoAssemblyIsNotC(t *testing.T) {
	stack := []Frame{
		{Func: "runtime.memmove", File: "/usr/local/go/src/runtime/memmove_amd64.s"},
		{Func: arr + "(*BinaryBuilder).Append", File: "/x/arrow/array/binarybuilder.go"},
	}
	if b, at := NewClassifier().Classify(stack); b != BucketArrow || at != 1 {
		t.Errorf("memmove under a builder: %v by frame %d, want arrow by 1", b, at)
	}
	stack = []Frame{{Func: mem + "_memset_avx2", File: "/x/arrow/memory/_lib/memory_avx2_amd64.s"}, {Func: wl + "BatchChecksum", File: "/x/workloads/hash.go"}}
	if b, _ := NewClassifier().Classify(stack); b != BucketArrow {
		t.Errorf("arrow assembly: %v, want arrow", b)
	}
}

func TestStaticGoAssemblyIsNotC(t *testing.T) {
	stack := []Frame{
		{Func: "indexbytebody", File: "/usr/local/go/src/internal/bytealg/indexbyte_amd64.s"},
		{Func: wl + "csvPlain", File: "/x/workloads/csv.go"},
	}
	if b, at := NewClassifier().Classify(stack); b != BucketDecode || at != 1 {
		t.Errorf("indexbytebody under csvPlain: %v by frame %d, want decode by 1", b, at)
	}
	if b, _ := NewClassifier().Classify([]Frame{{Func: "fp_drain_copy", File: "/x/source/drain_amd64.S"}}); b != BucketCgo {
		t.Errorf("gcc assembler frame: %v, want librdkafka/cgo", b)
	}
}

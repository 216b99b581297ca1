package profile

import "strings"

// Rule is one line of the attribution table: frames that Match are charged
// to Bucket, or, for a Pass rule, own nothing and the walk goes on towards
// the root.
type Rule struct {
	Bucket Bucket
	Pass   bool
	What   string // what the rule matches, in words
	Match  func(Frame) bool
}

// Package paths the rules name.
const (
	modulePath     = "github.com/fastpathlab/fplab"
	workloadsPkg   = modulePath + "/workloads"
	rungPkg        = modulePath + "/ladder/rung"
	confluentPath  = "github.com/confluentinc/confluent-kafka-go/"
	arrowPath      = "github.com/apache/arrow-go/"
	arrowArrayPkg  = "/arrow/array"
	arrowMemoryPkg = "/arrow/memory"
	franzPath      = "github.com/twmb/franz-go/"
)

// GCRules is the table checked first, against every frame of the stack:
// a sample with any matching frame is garbage collection, whoever
// allocated. It names the GC's entry points (background mark workers,
// assists, the write-barrier flush, sweeping and scavenging, explicit
// runtime.GC) so the frames below them need no rule.
func GCRules() []Rule {
	return []Rule{
		{Bucket: BucketGC, What: "runtime.gc[A-Z]*: gcBgMarkWorker, gcDrain*, gcAssistAlloc*, gcStart, gcMarkDone, gcMarkTermination, gcWriteBarrier*, ...", Match: func(f Frame) bool {
			n := runtimeFunc(f)
			return len(n) > 2 && strings.HasPrefix(n, "gc") && n[2] >= 'A' && n[2] <= 'Z'
		}},
		{Bucket: BucketGC, What: "runtime marking: markroot*, scan* (scanobject, scanstack, scanSpan, ...), greyobject, wbBufFlush*, (*gcWork).*", Match: func(f Frame) bool {
			n := runtimeFunc(f)
			return strings.HasPrefix(n, "markroot") || strings.HasPrefix(n, "scan") ||
				n == "greyobject" || strings.HasPrefix(n, "wbBufFlush") || strings.HasPrefix(n, "(*gcWork).")
		}},
		{Bucket: BucketGC, What: "runtime sweeping and scavenging: bgsweep, sweepone, (*sweepLocked).sweep, deductSweepCredit, (*mheap).reclaim*, bgscavenge, (*scavengerState).*, (*pageAlloc).scavenge*", Match: func(f Frame) bool {
			n := runtimeFunc(f)
			return n == "bgsweep" || n == "sweepone" || n == "(*sweepLocked).sweep" || n == "deductSweepCredit" ||
				strings.HasPrefix(n, "(*mheap).reclaim") || n == "bgscavenge" ||
				strings.HasPrefix(n, "(*scavengerState).") || strings.HasPrefix(n, "(*pageAlloc).scavenge")
		}},
		{Bucket: BucketGC, What: "runtime.GC, runtime._GC (the profiler's GC pseudo-frame), runtime.forcegchelper", Match: func(f Frame) bool {
			n := runtimeFunc(f)
			return n == "GC" || n == "_GC" || n == "forcegchelper"
		}},
	}
}

// OwnerRules is the table walked from the leaf: for each frame, the first
// rule that matches decides; a Pass rule, or no rule at all, sends the walk
// on to the caller.
func OwnerRules() []Rule {
	return []Rule{
		{Pass: true, What: "arrow-go readers: methods of non-builder types in arrow/array, the arrow package itself, arrow/bitutil, arrow/internal, (*memory.Buffer) accessors", Match: isArrowReader},
		{Bucket: BucketCgo, What: "cgo: runtime.cgocall, runtime.asmcgocall*, runtime.cgo*, runtime/cgo, runtime._ExternalCode, runtime._LostExternalCode, *._Cfunc_*, *._Cmacro_*, _cgo*", Match: isCgo},
		{Bucket: BucketCgo, What: "C frames: a name that is no Go symbol (no package path, or unsymbolized), a GCC clone (f.cold, f.part.N), or a C/C++ source file", Match: isCFrame},
		{Bucket: BucketCgo, What: "confluent-kafka-go (github.com/confluentinc/confluent-kafka-go/...)", Match: func(f Frame) bool {
			return strings.HasPrefix(f.Pkg(), confluentPath)
		}},
		{Bucket: BucketVerify, What: "workloads hashing and checksums (names holding hash or checksum, fold*, avalanche, rowSeed) and the corpus generator behind the expected hashes ((*Corpus).*, (*Hashes).*, generate, (*rng).*, splitmix, randPrice)", Match: isWorkloadsVerify},
		{Bucket: BucketVerify, What: "ladder/rung verifier: (*verifier).*, checkClaims, checkPath, checkBalanced, expectedHashes, writeHashes", Match: isRungVerify},
		{Pass: true, What: "workloads encoders and setup: Encode, append*, New*/new*, Parse*, Formats, Schema*, schema and column construction", Match: isWorkloadsSetup},
		{Bucket: BucketDecode, What: "the rest of workloads: parse, scan*, skip*, unescape*, csv*, proto*, rawParse, DecodeRow, (*columnar).*, AppendBulk, (*builders).*, (*rowBuilder).*, ...", Match: func(f Frame) bool {
			return f.Pkg() == workloadsPkg
		}},
		{Bucket: BucketArrow, What: "arrow-go (builders, package-level constructors, memory, ...)", Match: func(f Frame) bool {
			return strings.HasPrefix(f.Pkg(), arrowPath)
		}},
		{Bucket: BucketClient, What: "franz-go (github.com/twmb/franz-go/...)", Match: func(f Frame) bool {
			return strings.HasPrefix(f.Pkg(), franzPath)
		}},
	}
}

// IsRuntime reports whether a frame is in the Go runtime proper: package
// runtime or internal/runtime/... (not runtime/pprof, runtime/debug).
func IsRuntime(f Frame) bool {
	p := f.Pkg()
	return p == "runtime" || strings.HasPrefix(p, "internal/runtime/") || strings.HasPrefix(p, "runtime/internal/")
}

// runtimeFunc is the name after "runtime." for a frame of package runtime,
// "" otherwise.
func runtimeFunc(f Frame) string {
	if n, ok := strings.CutPrefix(f.Func, "runtime."); ok {
		return n
	}
	return ""
}

func isCgo(f Frame) bool {
	if n := runtimeFunc(f); n != "" {
		return n == "cgocall" || strings.HasPrefix(n, "asmcgocall") || strings.HasPrefix(n, "cgo") ||
			n == "_ExternalCode" || n == "_LostExternalCode"
	}
	if f.Pkg() == "runtime/cgo" || strings.HasPrefix(f.Func, "_cgo") || strings.HasPrefix(f.Func, "x_cgo") {
		return true
	}
	_, rest := splitSymbol(f.Func)
	return strings.HasPrefix(rest, "_Cfunc_") || strings.HasPrefix(rest, "_Cmacro_") ||
		strings.HasPrefix(rest, "_cgo") || strings.HasPrefix(rest, "_C2func_")
}

// cExts are C and C++ source files and gcc's preprocessed assembler (.S).
// Go's own assembly (runtime.memmove in memmove_amd64.s, internal/bytealg's
// static indexbytebody, arrow-go's _memset_avx2) has .s files and is Go.
var cExts = []string{".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".S"}

// isCFrame: a Go symbol always has a package path ("runtime.x", "main.x");
// C symbols have none, and GCC's clones ("f.cold", "f.part.0", "f.isra.0",
// "f.constprop.0") are C too. Go assembly's static functions (TEXT
// indexbytebody<>) have no package path either; their .s file tells them
// apart. Go's profiler symbolizes every Go PC itself, so a location
// without a function is foreign code.
func isCFrame(f Frame) bool {
	if strings.HasSuffix(f.File, ".s") {
		return false
	}
	for _, e := range cExts {
		if strings.HasSuffix(f.File, e) {
			return true
		}
	}
	if !f.IsGo() {
		return true
	}
	if strings.ContainsAny(f.Func, "/()*") {
		return false
	}
	_, rest := splitSymbol(f.Func)
	return gccClone(rest)
}

// gccClone reports whether rest is a GCC clone suffix: "cold", "cold.N",
// "part.N", "isra.N", "constprop.N", "lto_priv.N" (N digits, possibly
// chained: "constprop.0.isra.0").
func gccClone(rest string) bool {
	if rest == "cold" {
		return true
	}
	for rest != "" {
		kind, after, ok := strings.Cut(rest, ".")
		if !ok {
			return false
		}
		switch kind {
		case "cold", "part", "isra", "constprop", "lto_priv":
		default:
			return false
		}
		num, tail, _ := strings.Cut(after, ".")
		if num == "" || strings.Trim(num, "0123456789") != "" {
			return false
		}
		rest = tail
	}
	return true
}

func isArrowReader(f Frame) bool {
	p := f.Pkg()
	if !strings.HasPrefix(p, arrowPath) {
		return false
	}
	// drop the module's major version: github.com/apache/arrow-go/v18/arrow/array -> /arrow/array
	sub := strings.TrimPrefix(p, arrowPath)
	if i := strings.IndexByte(sub, '/'); i >= 0 && strings.HasPrefix(sub, "v") {
		sub = sub[i:]
	} else {
		sub = "/" + sub
	}
	switch {
	case sub == "/arrow", sub == "/arrow/bitutil", strings.HasPrefix(sub, "/arrow/internal"), strings.HasPrefix(sub, "/internal"):
		return true
	case sub == arrowArrayPkg:
		r := f.Recv()
		return r != "" && !strings.Contains(r, "Builder") && !strings.Contains(r, "builder")
	case sub == arrowMemoryPkg:
		if f.Recv() != "Buffer" {
			return false
		}
		switch f.Name() {
		case "Bytes", "Buf", "Len", "Cap":
			return true
		}
	}
	return false
}

func isWorkloadsVerify(f Frame) bool {
	if f.Pkg() != workloadsPkg {
		return false
	}
	switch f.Recv() {
	case "Corpus", "Hashes", "rng", "genState":
		return true
	}
	n := f.Name()
	l := strings.ToLower(n)
	if strings.Contains(l, "hash") || strings.Contains(l, "checksum") || strings.HasPrefix(n, "fold") {
		return true
	}
	switch n {
	case "avalanche", "rowSeed", "generate", "splitmix", "randPrice":
		return true
	}
	return false
}

func isRungVerify(f Frame) bool {
	if f.Pkg() != rungPkg {
		return false
	}
	if f.Recv() == "verifier" {
		return true
	}
	switch f.Name() {
	case "checkClaims", "checkPath", "checkBalanced", "expectedHashes", "writeHashes":
		return f.Recv() == ""
	}
	return false
}

func isWorkloadsSetup(f Frame) bool {
	if f.Pkg() != workloadsPkg {
		return false
	}
	n, r := f.Name(), f.Recv()
	switch {
	case n == "Encode", r == "Schema", r == "kind":
		return true
	case r != "":
		return false
	}
	for _, p := range []string{"append", "New", "new", "Parse", "Formats", "Schema", "arrowSchema", "bidColumns", "wideColumns"} {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

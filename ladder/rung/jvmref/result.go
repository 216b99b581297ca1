package jvmref

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Result is a reference program's result line, plus what the Go side
// saw of the process.
type Result struct {
	Program       Program
	Records       int64
	Bytes         int64         // value bytes of the measured records
	Window        time.Duration // first to last record of the measured pass or run
	Startup       time.Duration // JVM start to the first record the program received
	WarmupRecords int64         // records read before the measured pass (steady) or in warm-up runs (flink)
	Warmup        time.Duration // the warm-up reads' own windows
	JVM           string        // java.vm.name/java.vm.version, spaces as '_'
	GC            string        // the collectors' names, comma-separated, spaces as '_'
	HeapMax       int64         // Runtime.maxMemory(), bytes
	Conf          []string      // the client (and Flink) settings in force, "key:value"

	// Ckpt is Flink's own checkpoint statistics of the measured run, nil
	// unless it checkpointed (ParseCkpt).
	Ckpt *Ckpt
	// Start is where FlinkBounded read each partition, nil unless it ran
	// a start-up case (Opts.Start, ParseStart).
	Start *Start

	// Set by Run, not by ParseResult:
	Argv   []string      // the java command line, JVM flags included
	CPU    time.Duration // user+sys CPU of the whole JVM, start-up included
	MaxRSS int64         // peak resident set, KiB
}

// resultPrefix starts the result line.
const resultPrefix = "FPLAB"

// resultKeys are the result line's fields, each required exactly once.
var resultKeys = []string{"program", "records", "bytes", "window_ns", "startup_ns",
	"warmup_records", "warmup_ns", "jvm", "gc", "heap_max", "conf"}

// ParseResult reads the one result line of a reference program's stdout:
//
//	FPLAB program=steady records=N bytes=B window_ns=W startup_ns=S warmup_records=R warmup_ns=U jvm=NAME/VERSION gc=NAME,... heap_max=BYTES conf=KEY:VALUE,...
//
// Every field is required exactly once and no other is allowed; numbers
// are non-negative decimal integers, records and window_ns are positive
// unless records is 0. No result line, two of them, or a malformed one is
// an error naming what is wrong.
func ParseResult(stdout string) (Result, error) {
	line, n := prefixedLine(stdout, resultPrefix)
	switch n {
	case 0:
		return Result{}, fmt.Errorf("java reference printed no %q result line", resultPrefix)
	case 1:
	default:
		return Result{}, fmt.Errorf("java reference printed %d %q result lines, want one", n, resultPrefix)
	}
	bad := func(format string, a ...any) (Result, error) {
		return Result{}, fmt.Errorf("java reference result line %q: %w", line, fmt.Errorf(format, a...))
	}
	kv := make(map[string]string, len(resultKeys))
	for _, f := range strings.Fields(line)[1:] {
		k, v, ok := strings.Cut(f, "=")
		switch {
		case !ok || k == "":
			return bad("field %q is not key=value", f)
		case !slices.Contains(resultKeys, k):
			return bad("unknown field %q", k)
		case v == "":
			return bad("field %s is empty", k)
		}
		if _, dup := kv[k]; dup {
			return bad("field %s given twice", k)
		}
		kv[k] = v
	}
	for _, k := range resultKeys {
		if _, ok := kv[k]; !ok {
			return bad("missing field %s", k)
		}
	}
	num := func(k string) (int64, error) {
		v, err := strconv.ParseInt(kv[k], 10, 64)
		if err != nil || v < 0 {
			return 0, fmt.Errorf("field %s=%q is not a non-negative integer", k, kv[k])
		}
		return v, nil
	}
	var r Result
	var nums [7]int64
	for i, k := range []string{"records", "bytes", "window_ns", "startup_ns", "warmup_records", "warmup_ns", "heap_max"} {
		v, err := num(k)
		if err != nil {
			return bad("%w", err)
		}
		nums[i] = v
	}
	r.Program = Program(kv["program"])
	if r.Program != Steady && r.Program != Flink {
		return bad("unknown program %q", kv["program"])
	}
	r.Records, r.Bytes = nums[0], nums[1]
	r.Window, r.Startup = time.Duration(nums[2]), time.Duration(nums[3])
	r.WarmupRecords, r.Warmup = nums[4], time.Duration(nums[5])
	r.HeapMax = nums[6]
	r.JVM, r.GC = kv["jvm"], kv["gc"]
	if r.Records > 0 && r.Window <= 0 {
		return bad("an empty window for %d records", r.Records)
	}
	if r.HeapMax == 0 {
		return bad("heap_max is 0")
	}
	if kv["conf"] != "-" {
		for _, c := range strings.Split(kv["conf"], ",") {
			if k, v, ok := strings.Cut(c, ":"); !ok || k == "" || v == "" {
				return bad("conf entry %q is not key:value", c)
			}
			r.Conf = append(r.Conf, c)
		}
	}
	return r, nil
}

// prefixedLine is the last line of stdout that is prefix or starts with
// prefix and a space (a trailing CR dropped), and how many lines do.
func prefixedLine(stdout, prefix string) (string, int) {
	var line string
	n := 0
	for _, l := range strings.Split(stdout, "\n") {
		l = strings.TrimRight(l, "\r")
		if l == prefix || strings.HasPrefix(l, prefix+" ") {
			line = l
			n++
		}
	}
	return line, n
}

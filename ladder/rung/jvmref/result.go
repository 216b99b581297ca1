package jvmref

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/results"
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
	Mem           Mem           // the JVM's resident sets, split at the path's open
	Conf          []string      // the client (and Flink) settings in force, "key:value"

	// Ckpt is Flink's own checkpoint statistics of the measured run, nil
	// unless it checkpointed (ParseCkpt).
	Ckpt *Ckpt
	// Start is where FlinkBounded read each partition, nil unless it ran
	// a start-up case (Opts.Start, ParseStart).
	Start *Start

	// Set by Run, not by ParseResult:
	Argv []string      // the java command line, JVM flags included
	CPU  time.Duration // user+sys CPU of the whole JVM, start-up included
}

// Mem is a JVM's memory as the program itself read it (fplab.Rss), KiB,
// the way a Go cell reads its own (ladder/rung/rss_linux.go): just before
// its client or job opens the program reads its resident set (VmRSS, the
// harness: the JVM with its heap settings, its classes and the program's
// set-up; -Xms commits the heap, but only touched pages are resident) and
// its peak so far (VmHWM) from /proc/self/status, and resets the kernel's
// peak (/proc/self/clear_refs 5); after the last record it reads the peak
// again. Not getrusage's ru_maxrss of the child: Linux folds the peak of
// the image execve replaces into it, and a child the Go runtime starts
// shares the rung's memory until then, so it was at least the rung's
// resident set.
type Mem struct {
	Harness  int64 // resident when the path opened
	PathPeak int64 // the peak since the path opened, less Harness (0 at least)
	Peak     int64 // the process's peak: the larger of VmHWM before the reset and at the end
}

// memKeys are the fields of the JVM's memory on the result line (and on
// the FPLAB-RSS line of java-perf, perf.go), in Mem's order.
var memKeys = []string{"rss_harness_kb", "rss_path_peak_kb", "rss_peak_kb"}

// memOf reads Mem from the fields of a line, kv, whose keys are known to
// be there. The figures must be consistent: the harness's resident set is
// at most the peak before the reset (both are read at once), and the
// harness plus a non-zero path peak is the peak after it, so Harness plus
// PathPeak never exceeds Peak.
func memOf(kv map[string]string) (Mem, error) {
	var v [3]int64
	for i, k := range memKeys {
		n, err := strconv.ParseInt(kv[k], 10, 64)
		if err != nil || n < 0 {
			return Mem{}, fmt.Errorf("field %s=%q is not a non-negative integer", k, kv[k])
		}
		v[i] = n
	}
	m := Mem{Harness: v[0], PathPeak: v[1], Peak: v[2]}
	switch {
	case m.Harness == 0 || m.Peak == 0:
		return Mem{}, fmt.Errorf("a zero resident set (rss_harness_kb=%d, rss_peak_kb=%d)", m.Harness, m.Peak)
	case m.Harness+m.PathPeak > m.Peak:
		return Mem{}, fmt.Errorf("rss_harness_kb=%d plus rss_path_peak_kb=%d exceed rss_peak_kb=%d", m.Harness, m.PathPeak, m.Peak)
	}
	return m, nil
}

// metrics are m's units: peak-RSS-MB, then the split (split), MiB as the
// Go cells' (a JVM cell has no arrow-peak-MB: it builds no Arrow batches).
func (m Mem) metrics() []results.Metric {
	return append([]results.Metric{{Value: float64(m.Peak) / 1024, Unit: results.UnitPeakRSSMB}}, m.split()...)
}

// split are path-peak-RSS-MB and harness-RSS-MB, for a caller that
// reports the process's peak itself (the live figures).
func (m Mem) split() []results.Metric {
	return []results.Metric{
		{Value: float64(m.PathPeak) / 1024, Unit: results.UnitPathPeakRSSMB},
		{Value: float64(m.Harness) / 1024, Unit: results.UnitHarnessRSSMB},
	}
}

// resultPrefix starts the result line.
const resultPrefix = "FPLAB"

// resultKeys are the result line's fields, each required exactly once.
var resultKeys = slices.Concat([]string{"program", "records", "bytes", "window_ns", "startup_ns",
	"warmup_records", "warmup_ns", "jvm", "gc", "heap_max"}, memKeys, []string{"conf"})

// ParseResult reads the one result line of a reference program's stdout:
//
//	FPLAB program=steady records=N bytes=B window_ns=W startup_ns=S warmup_records=R warmup_ns=U jvm=NAME/VERSION gc=NAME,... heap_max=BYTES rss_harness_kb=H rss_path_peak_kb=P rss_peak_kb=K conf=KEY:VALUE,...
//
// Every field is required exactly once and no other is allowed; numbers
// are non-negative decimal integers, records and window_ns are positive
// unless records is 0; the rss_ fields are Mem's, KiB, consistent as memOf
// checks. No result line, two of them, or a malformed one is an error
// naming what is wrong.
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
	kv, err := lineFields(line, resultKeys)
	if err != nil {
		return bad("%w", err)
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
	mem, err := memOf(kv)
	if err != nil {
		return bad("%w", err)
	}
	r.Mem = mem
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

// lineFields are the key=value fields of line after its prefix word:
// each of keys exactly once, none other, no value empty.
func lineFields(line string, keys []string) (map[string]string, error) {
	kv := make(map[string]string, len(keys))
	for _, f := range strings.Fields(line)[1:] {
		k, v, ok := strings.Cut(f, "=")
		switch {
		case !ok || k == "":
			return nil, fmt.Errorf("field %q is not key=value", f)
		case !slices.Contains(keys, k):
			return nil, fmt.Errorf("unknown field %q", k)
		case v == "":
			return nil, fmt.Errorf("field %s is empty", k)
		}
		if _, dup := kv[k]; dup {
			return nil, fmt.Errorf("field %s given twice", k)
		}
		kv[k] = v
	}
	for _, k := range keys {
		if _, ok := kv[k]; !ok {
			return nil, fmt.Errorf("missing field %s", k)
		}
	}
	return kv, nil
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

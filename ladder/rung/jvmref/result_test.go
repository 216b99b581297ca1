package jvmref

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

const javaRefSample = "FPLAB program=steady records=500000 bytes=55000000 window_ns=1250000000 startup_ns=2100000000 " +
	"warmup_records=500000 warmup_ns=2000000000 jvm=OpenJDK_64-Bit_Server_VM/17.0.15+6-Debian-1deb12u1 " +
	"gc=G1_Young_Generation,G1_Old_Generation heap_max=536870912 " +
	"rss_harness_kb=61440 rss_path_peak_kb=204800 rss_peak_kb=266240 " +
	"conf=fetch.min.bytes:1,fetch.max.bytes:52428800,max.poll.records:10000,isolation.level:read_committed"

func TestParseResult(t *testing.T) {
	r, err := ParseResult("[main] WARN noise\n" + javaRefSample + "\n")
	if err != nil {
		t.Fatal(err)
	}
	want := Result{
		Program: Steady, Records: 500000, Bytes: 55000000,
		Window: 1250 * time.Millisecond, Startup: 2100 * time.Millisecond,
		WarmupRecords: 500000, Warmup: 2 * time.Second,
		JVM: "OpenJDK_64-Bit_Server_VM/17.0.15+6-Debian-1deb12u1", GC: "G1_Young_Generation,G1_Old_Generation",
		HeapMax: 536870912, Mem: Mem{Harness: 61440, PathPeak: 204800, Peak: 266240},
		Conf: []string{"fetch.min.bytes:1", "fetch.max.bytes:52428800", "max.poll.records:10000", "isolation.level:read_committed"},
	}
	if fmt.Sprintf("%+v", r) != fmt.Sprintf("%+v", want) {
		t.Errorf("ParseResult =\n%+v\nwant\n%+v", r, want)
	}
	// An empty conf is written as "-".
	if r, err := ParseResult(strings.Replace(javaRefSample, "conf=fetch", "conf=- x=fetch", 1)); err == nil {
		t.Errorf("unknown field x accepted: %+v", r)
	}
	noConf := javaRefSample[:strings.Index(javaRefSample, " conf=")] + " conf=-"
	if r, err := ParseResult(noConf); err != nil || r.Conf != nil {
		t.Errorf("conf=-: %+v, %v", r, err)
	}
	// A zero-record read of an empty topic has no window.
	empty := strings.NewReplacer("records=500000 bytes=55000000 window_ns=1250000000", "records=0 bytes=0 window_ns=0").Replace(javaRefSample)
	if _, err := ParseResult(empty); err != nil {
		t.Errorf("empty read: %v", err)
	}

	for name, tc := range map[string]struct{ out, want string }{
		"no line":          {"[main] WARN something\n", "no \"FPLAB\" result line"},
		"empty output":     {"", "no \"FPLAB\" result line"},
		"two lines":        {javaRefSample + "\n" + javaRefSample, "2 \"FPLAB\" result lines"},
		"missing records":  {strings.Replace(javaRefSample, "records=500000 ", "", 1), "missing field records"},
		"missing window":   {strings.Replace(javaRefSample, "window_ns=1250000000 ", "", 1), "missing field window_ns"},
		"missing heap_max": {strings.Replace(javaRefSample, "heap_max=536870912 ", "", 1), "missing field heap_max"},
		"missing conf":     {javaRefSample[:strings.Index(javaRefSample, " conf=")], "missing field conf"},
		"bare prefix":      {"FPLAB", "missing field program"},
		"bad records":      {strings.Replace(javaRefSample, "records=500000 ", "records=5e5 ", 1), `records="5e5"`},
		"negative window":  {strings.Replace(javaRefSample, "window_ns=1250000000", "window_ns=-1", 1), `window_ns="-1"`},
		"float startup":    {strings.Replace(javaRefSample, "startup_ns=2100000000", "startup_ns=2.1", 1), `startup_ns="2.1"`},
		"overflow":         {strings.Replace(javaRefSample, "bytes=55000000", "bytes=99999999999999999999", 1), `bytes="99999999999999999999"`},
		"zero window":      {strings.Replace(javaRefSample, "window_ns=1250000000", "window_ns=0", 1), "empty window"},
		"zero heap":        {strings.Replace(javaRefSample, "heap_max=536870912", "heap_max=0", 1), "heap_max is 0"},
		"missing rss":      {strings.Replace(javaRefSample, "rss_path_peak_kb=204800 ", "", 1), "missing field rss_path_peak_kb"},
		"negative rss":     {strings.Replace(javaRefSample, "rss_harness_kb=61440", "rss_harness_kb=-1", 1), `rss_harness_kb="-1"`},
		"zero harness":     {strings.Replace(javaRefSample, "rss_harness_kb=61440", "rss_harness_kb=0", 1), "a zero resident set"},
		"rss over peak":    {strings.Replace(javaRefSample, "rss_peak_kb=266240", "rss_peak_kb=266239", 1), "exceed rss_peak_kb=266239"},
		"duplicate":        {javaRefSample + " records=1", "records given twice"},
		"unknown field":    {javaRefSample + " speed=fast", `unknown field "speed"`},
		"not key=value":    {javaRefSample + " loose", `"loose" is not key=value`},
		"empty value":      {strings.Replace(javaRefSample, "gc=G1_Young_Generation,G1_Old_Generation", "gc=", 1), "gc is empty"},
		"unknown program":  {strings.Replace(javaRefSample, "program=steady", "program=spark", 1), `unknown program "spark"`},
		"bad conf":         {strings.Replace(javaRefSample, "max.poll.records:10000", "max.poll.records", 1), `conf entry "max.poll.records"`},
	} {
		_, err := ParseResult(tc.out)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one containing %q", name, err, tc.want)
		}
	}
}

package jvmref

import (
	"strings"
	"testing"
	"time"
)

const perfSample = `start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec
2026-12-02T11:40:01.250Z, 2026-12-02T11:40:03.750Z, 95.3674, 38.1470, 1000000, 400000.0000, 500, 2000, 47.6837, 500000.0000
`

func TestParsePerf(t *testing.T) {
	r, err := parsePerf("SLF4J: noise\n" + perfSample)
	if err != nil {
		t.Fatal(err)
	}
	if r.Messages != 1000000 || r.FetchMs != 2000 || r.RebalanceMs != 500 || r.MB != 95.3674 || r.End.Sub(r.Start) != 2500*time.Millisecond {
		t.Errorf("parsePerf = %+v", r)
	}
	for _, bad := range []string{
		"",
		"WARNING: Exiting before consuming the expected number of messages: timeout (10000 ms) exceeded.\n" + perfSample,
		strings.Replace(perfSample, ", 500, 2000,", ", 500,", 1),
		strings.Replace(perfSample, "1000000,", "lots,", 1),
	} {
		if _, err := parsePerf(bad); err == nil {
			t.Errorf("parsePerf(%q): want an error", bad)
		}
	}
}

// TestParsePerfRSS: fplab.PerfWrap's one line after the tool's output, its
// fields the result line's, checked as there.
func TestParsePerfRSS(t *testing.T) {
	const line = "FPLAB-RSS rss_harness_kb=53160 rss_path_peak_kb=54272 rss_peak_kb=107432"
	m, err := parsePerfRSS(perfSample + line + "\n")
	if err != nil || m != (Mem{Harness: 53160, PathPeak: 54272, Peak: 107432}) {
		t.Errorf("parsePerfRSS = %+v, %v", m, err)
	}
	for in, want := range map[string]string{
		perfSample:                `0 "FPLAB-RSS" lines`,
		line + "\n" + line:        `2 "FPLAB-RSS" lines`,
		line + " rss_x=1":         `unknown field "rss_x"`,
		"FPLAB-RSS rss_peak_kb=1": "missing field rss_harness_kb",
		strings.Replace(line, "rss_peak_kb=107432", "rss_peak_kb=1", 1): "exceed rss_peak_kb=1",
	} {
		if _, err := parsePerfRSS(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parsePerfRSS(%q) = %v, want %q", in, err, want)
		}
	}
}

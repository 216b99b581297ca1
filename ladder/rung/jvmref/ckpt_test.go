package jvmref

import (
	"strings"
	"testing"
	"time"
)

func TestParseCkpt(t *testing.T) {
	got, err := ParseCkpt("FPLAB program=flink ...\nFPLAB-CKPT count=9 p50_ns=64000000 max_ns=162000000 failed=2\n")
	if err != nil || got == nil || *got != (Ckpt{Count: 9, Failed: 2, P50: 64 * time.Millisecond, Max: 162 * time.Millisecond}) {
		t.Fatalf("got %+v, %v", got, err)
	}
	if got, err := ParseCkpt("FPLAB program=flink\n"); got != nil || err != nil {
		t.Errorf("no line: %+v, %v", got, err)
	}
	for in, want := range map[string]string{
		"FPLAB-CKPT count=1 p50_ns=1 max_ns=1 failed=0\nFPLAB-CKPT count=1 p50_ns=1 max_ns=1 failed=0": "2 \"FPLAB-CKPT\" lines",
		"FPLAB-CKPT count=1 p50_ns=1 max_ns=1":                                                         "missing field failed",
		"FPLAB-CKPT count=1 p50_ns=1 max_ns=1 failed=0 x=1":                                            "unknown field",
		"FPLAB-CKPT count=1 p50_ns=-1 max_ns=1 failed=0":                                               "not a non-negative integer",
		"FPLAB-CKPT count=1 p50_ns=5 max_ns=1 failed=0":                                                "above max",
		"FPLAB-CKPT count=0 p50_ns=0 max_ns=1 failed=0":                                                "without a completed checkpoint",
		"FPLAB-CKPT count=1 count=1 p50_ns=1 max_ns=1 failed=0":                                        "given twice",
	} {
		if _, err := ParseCkpt(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}

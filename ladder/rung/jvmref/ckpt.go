package jvmref

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Ckpt is FlinkBounded's checkpoint line, Flink's own statistics of
// the measured run (its checkpoint trace events):
//
//	FPLAB-CKPT count=C p50_ns=P max_ns=M failed=F
//
// C completed checkpoints, P the median and M the largest duration from
// trigger to the last acknowledgement (Flink keeps milliseconds), F the
// failed ones (subtasks finishing at the end of a bounded input decline
// the checkpoints that reach them).
type Ckpt struct {
	Count, Failed int64
	P50, Max      time.Duration
}

const ckptPrefix = "FPLAB-CKPT"

var ckptKeys = []string{"count", "p50_ns", "max_ns", "failed"}

// ParseCkpt reads the one FPLAB-CKPT line of a reference program's
// stdout: nil when there is none; an error for two, a malformed one, or
// one whose figures disagree (a p50 above the max, durations without a
// completed checkpoint).
func ParseCkpt(stdout string) (*Ckpt, error) {
	line, n := prefixedLine(stdout, ckptPrefix)
	switch {
	case n == 0:
		return nil, nil
	case n > 1:
		return nil, fmt.Errorf("java reference printed %d %q lines, want at most one", n, ckptPrefix)
	}
	bad := func(format string, a ...any) (*Ckpt, error) {
		return nil, fmt.Errorf("java reference checkpoint line %q: %s", line, fmt.Sprintf(format, a...))
	}
	kv := map[string]int64{}
	for _, f := range strings.Fields(line)[1:] {
		k, v, ok := strings.Cut(f, "=")
		if !ok || !slices.Contains(ckptKeys, k) {
			return bad("unknown field %q", f)
		}
		if _, dup := kv[k]; dup {
			return bad("field %s given twice", k)
		}
		x, err := strconv.ParseInt(v, 10, 64)
		if err != nil || x < 0 {
			return bad("field %s=%q is not a non-negative integer", k, v)
		}
		kv[k] = x
	}
	for _, k := range ckptKeys {
		if _, ok := kv[k]; !ok {
			return bad("missing field %s", k)
		}
	}
	c := &Ckpt{Count: kv["count"], Failed: kv["failed"], P50: time.Duration(kv["p50_ns"]), Max: time.Duration(kv["max_ns"])}
	switch {
	case c.P50 > c.Max:
		return bad("p50 %v above max %v", c.P50, c.Max)
	case c.Count == 0 && c.Max > 0:
		return bad("durations without a completed checkpoint")
	}
	return c, nil
}

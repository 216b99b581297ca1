package jvmref

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// perfDateLayout is the --date-format the rung passes to ConsumerPerformance
// (Java SimpleDateFormat) and its Go layout.
const (
	perfDateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSXXX"
	perfDateLayout = "2006-01-02T15:04:05.000Z07:00"
)

// perfResult is ConsumerPerformance's summary line.
type perfResult struct {
	Start, End  time.Time
	MB          float64 // data.consumed.in.MB (MiB: bytes / 1024 / 1024)
	Messages    int64   // data.consumed.in.nMsg
	RebalanceMs int64   // rebalance.time.ms: group join until assignment
	FetchMs     int64   // fetch.time.ms: end - start - rebalance
}

// perfHeader starts the header line of the summary.
const perfHeader = "start.time, end.time, data.consumed.in.MB"

// parsePerf reads the summary of `ConsumerPerformance` (without
// --show-detailed-stats): a header line then one line of ten
// comma-separated fields. A "WARNING: Exiting before consuming the
// expected number of messages" line is an error.
func parsePerf(out string) (perfResult, error) {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "WARNING: Exiting before consuming") {
			return perfResult{}, fmt.Errorf("java consumer: %s", strings.TrimSpace(l))
		}
		if !strings.HasPrefix(strings.TrimSpace(l), perfHeader) || i+1 >= len(lines) {
			continue
		}
		f := strings.Split(lines[i+1], ",")
		if len(f) != 10 {
			return perfResult{}, fmt.Errorf("java consumer summary has %d fields, want 10: %q", len(f), strings.TrimSpace(lines[i+1]))
		}
		for j := range f {
			f[j] = strings.TrimSpace(f[j])
		}
		var r perfResult
		var errs [6]error
		r.Start, errs[0] = time.Parse(perfDateLayout, f[0])
		r.End, errs[1] = time.Parse(perfDateLayout, f[1])
		r.MB, errs[2] = strconv.ParseFloat(f[2], 64)
		r.Messages, errs[3] = strconv.ParseInt(f[4], 10, 64)
		r.RebalanceMs, errs[4] = strconv.ParseInt(f[6], 10, 64)
		r.FetchMs, errs[5] = strconv.ParseInt(f[7], 10, 64)
		for _, err := range errs {
			if err != nil {
				return perfResult{}, fmt.Errorf("java consumer summary %q: %w", strings.TrimSpace(lines[i+1]), err)
			}
		}
		return r, nil
	}
	return perfResult{}, fmt.Errorf("java consumer printed no summary line")
}

// perfRSSPrefix starts the line fplab.PerfWrap prints after
// ConsumerPerformance's own output: the JVM's memory, which the tool does
// not report.
const perfRSSPrefix = "FPLAB-RSS"

// parsePerfRSS reads the JVM's memory from fplab.PerfWrap's one line,
//
//	FPLAB-RSS rss_harness_kb=H rss_path_peak_kb=P rss_peak_kb=K
//
// (the result line's fields, Mem's, checked as memOf checks them). No such
// line, two of them, or a malformed one is an error.
func parsePerfRSS(out string) (Mem, error) {
	line, n := prefixedLine(out, perfRSSPrefix)
	if n != 1 {
		return Mem{}, fmt.Errorf("java consumer printed %d %q lines, want one", n, perfRSSPrefix)
	}
	kv, err := lineFields(line, memKeys)
	if err != nil {
		return Mem{}, fmt.Errorf("java consumer line %q: %w", line, err)
	}
	m, err := memOf(kv)
	if err != nil {
		return Mem{}, fmt.Errorf("java consumer line %q: %w", line, err)
	}
	return m, nil
}

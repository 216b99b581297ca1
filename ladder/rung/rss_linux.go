package rung

import (
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/fastpathlab/fplab/results"
)

// The path's memory apart from the harness's. A cell's process holds both:
// the harness (the corpus generator, the hash windows, the checker) and
// the path (its client's queues and buffers, the decoders, the Arrow
// batches in flight). The harness sets itself up first and does not grow
// after (its windows are bounded and filled before the read), so the
// split is taken at the path's open (rssMark): the resident set then is
// the harness's, and the peak resident set from then on, less that, is
// the path's. Linux keeps the peak (VmHWM) and lets a process reset it to
// the current resident set (clear_refs 5), which is what makes the peak
// the read's own rather than the set-up's.
//
// The process's own peak (peak-RSS-MB) is read the same way, from VmHWM,
// never from getrusage's ru_maxrss: Linux folds the peak of the memory a
// process image replaces into ru_maxrss at execve, and a child the Go
// runtime starts shares its parent's memory until then (CLONE_VM), so a
// cell's ru_maxrss was at least the ladder's resident set when it
// started the cell (200 MB for every cell of a run whose own peak was
// 160 MB; the ladder grows with the corpora it loads).

// procPeak is the largest VmHWM this process has read before it reset it
// (markHarness) or since (split): its peak across resets.
var procPeak atomic.Int64

// rssMark is the resident set when the path opens.
type rssMark struct {
	harness int64 // bytes resident before the path opened
}

// markHarness returns the mark taken just before a path opens: the Go
// heap's garbage collected and returned to the system first, so what is
// resident is what the harness holds, then the peak reset.
func markHarness() (rssMark, error) {
	debug.FreeOSMemory()
	rss, hwm, err := readRSS()
	if err != nil {
		return rssMark{}, err
	}
	raisePeak(hwm)
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return rssMark{}, fmt.Errorf("reset the peak resident set: %w", err)
	}
	return rssMark{harness: rss}, nil
}

// pathPeak is the path's peak resident set since the mark: the process's
// peak since then less the harness's resident set at the mark.
func (m rssMark) pathPeak() (int64, error) {
	_, hwm, err := readRSS()
	if err != nil {
		return 0, err
	}
	raisePeak(hwm)
	return max(hwm-m.harness, 0), nil
}

// raisePeak keeps hwm in procPeak when it is above it.
func raisePeak(hwm int64) { atomicMax(&procPeak, hwm) }

// processPeak is this process's peak resident set, bytes, across the
// resets of its peak (the kernel's VmHWM now, and before each reset).
func processPeak() (int64, error) {
	_, hwm, err := readRSS()
	if err != nil {
		return 0, err
	}
	raisePeak(hwm)
	return procPeak.Load(), nil
}

// readRSS is the process's resident set and its peak (VmRSS, VmHWM), bytes.
func readRSS() (rss, hwm int64, err error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, 0, fmt.Errorf("resident set: %w", err)
	}
	rss, hwm = -1, -1
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok || (k != "VmRSS" && k != "VmHWM") {
			continue
		}
		f := strings.Fields(v)
		if len(f) != 2 || f[1] != "kB" {
			return 0, 0, fmt.Errorf("resident set: /proc/self/status line %q", line)
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("resident set: /proc/self/status line %q", line)
		}
		if k == "VmRSS" {
			rss = n << 10
		} else {
			hwm = n << 10
		}
	}
	if rss < 0 || hwm < 0 {
		return 0, 0, fmt.Errorf("resident set: no VmRSS and VmHWM in /proc/self/status")
	}
	return rss, hwm, nil
}

// memSplit is a read's memory, bytes: the process's peak resident set
// so far (processPeak), the harness's resident set at the path's open,
// the path's peak resident set since, and the most Arrow bytes the path's
// batches held at once (countingAllocator).
type memSplit struct {
	process, harness, path, arrow int64
}

// split ends the mark at the read's end: the path's peak since it, the
// process's, and the Arrow peak of mem.
func (m rssMark) split(mem *countingAllocator) (memSplit, error) {
	path, err := m.pathPeak()
	if err != nil {
		return memSplit{}, err
	}
	proc, err := processPeak()
	if err != nil {
		return memSplit{}, err
	}
	return memSplit{process: proc, harness: m.harness, path: path, arrow: mem.peak.Load()}, nil
}

// metrics are the split's units (peak-RSS-MB, the process's, is the
// caller's: s.process).
func (s memSplit) metrics() []results.Metric {
	return []results.Metric{
		{Value: float64(s.path) / (1 << 20), Unit: results.UnitPathPeakRSSMB},
		{Value: float64(s.harness) / (1 << 20), Unit: results.UnitHarnessRSSMB},
		{Value: float64(s.arrow) / (1 << 20), Unit: results.UnitArrowPeakMB},
	}
}

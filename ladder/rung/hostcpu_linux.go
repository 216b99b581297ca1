package rung

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/fastpathlab/fplab/results"
)

// hostSample is the whole machine's CPU time at one moment, from
// /proc/stat: what its CPUs spent busy (every state but idle and iowait)
// and in all, and how many CPUs it has. Two samples around a cell's read
// give the CPU every process spent in it — the path's, the brokers' and
// any neighbour's — which cpu-ns/rec (the path's process alone) cannot
// see: hostFigures.
type hostSample struct {
	at          time.Time
	busy, total time.Duration
	cpus        int
}

// userHz is /proc/stat's tick: USER_HZ, 100 on every Linux ABI.
const userHz = 100

func readHost() (hostSample, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return hostSample{}, fmt.Errorf("host cpu: %w", err)
	}
	s, err := parseProcStat(b)
	s.at = time.Now()
	return s, err
}

// parseProcStat reads /proc/stat's aggregate "cpu" line (user nice system
// idle iowait irq softirq steal, then guest times already counted in user
// and nice) and counts the per-CPU "cpuN" lines.
func parseProcStat(b []byte) (hostSample, error) {
	var s hostSample
	found := false
	for line := range bytes.Lines(b) {
		f := bytes.Fields(line)
		if len(f) == 0 || !bytes.HasPrefix(f[0], []byte("cpu")) {
			continue
		}
		if len(f[0]) > 3 {
			s.cpus++
			continue
		}
		if len(f) < 5 {
			return hostSample{}, fmt.Errorf("host cpu: /proc/stat's cpu line has %d fields, want at least 5", len(f)-1)
		}
		var ticks [8]uint64
		for i := 1; i < len(f) && i <= len(ticks); i++ {
			v, err := strconv.ParseUint(string(f[i]), 10, 64)
			if err != nil {
				return hostSample{}, fmt.Errorf("host cpu: /proc/stat's cpu line: field %d: %q is not a tick count", i, f[i])
			}
			ticks[i-1] = v
		}
		var all uint64
		for _, v := range ticks {
			all += v
		}
		idle := ticks[3] + ticks[4]
		s.total = time.Duration(all) * time.Second / userHz
		s.busy = time.Duration(all-idle) * time.Second / userHz
		found = true
	}
	if !found || s.cpus == 0 {
		return hostSample{}, fmt.Errorf("host cpu: /proc/stat has no aggregate cpu line or no cpuN lines")
	}
	return s, nil
}

// hostFigures are the host's figures for recs records read between a and
// b: host-cpu-ns/rec (the machine's busy CPU per record), host-busy-cores
// (how many of its CPUs were busy on average) and host-bound-rec/s (the
// rate at which every one of its CPUs would be busy at that CPU per
// record: what the cell could read on this host if the idle CPU could be
// put to work at no extra cost; docs/metrics.md). None when the samples
// are too close for /proc/stat's 10 ms ticks to count anything.
func hostFigures(a, b hostSample, recs int64) []results.Metric {
	busy, wall := b.busy-a.busy, b.at.Sub(a.at)
	if recs <= 0 || busy <= 0 || wall <= 0 || b.total <= a.total {
		return nil
	}
	perRec := float64(busy.Nanoseconds()) / float64(recs)
	return []results.Metric{
		{Value: perRec, Unit: results.UnitHostCPUNsPerRec},
		{Value: busy.Seconds() / wall.Seconds(), Unit: results.UnitHostBusyCores},
		{Value: float64(b.cpus) * 1e9 / perRec, Unit: results.UnitHostBoundRecPerSec},
	}
}

package results

import "strings"

// Direction says which way a unit improves.
type Direction int

const (
	// Neutral units (window-ms, rec/crossing, verify-ns/rec, unknown units) describe a
	// run rather than judge it; they are never regressions.
	Neutral Direction = 0
	// HigherIsBetter units: throughput.
	HigherIsBetter Direction = 1
	// LowerIsBetter units: costs, latencies and replay.
	LowerIsBetter Direction = -1
)

// Metric units the children print and the tables, figures, knee and
// report read: each name is defined here once, beside the direction it
// improves in (unitDirections). The checkpoint latencies other than
// UnitCkptP99 (ckpt-p50-ms, ckpt-max-ms, ...) are judged by Better's
// "ckpt-*-ms" rule.
const (
	// Throughput.
	UnitRecPerSec = "rec/s"
	UnitMBPerSec  = "MB/s"

	// Costs per record and per process.
	UnitNsPerRec    = "ns/rec"
	UnitCPUNsPerRec = "cpu-ns/rec"
	// The part of ns/rec the rung spent checking batches (hashing every
	// value against the corpus): the lab's cost, not the path's; neutral.
	UnitVerifyNsPerRec = "verify-ns/rec"
	UnitBytesPerRec    = "B/rec"
	UnitAllocsPerRec   = "allocs/rec"
	UnitPeakRSSMB      = "peak-RSS-MB"
	UnitStartupMs      = "startup-ms"
	// The path's memory apart from the harness's (peak-RSS-MB is the
	// whole process's): the peak resident set from the path's open on,
	// less what the harness held resident then (harness-RSS-MB, neutral:
	// the lab's, not the path's), and the peak of the Arrow bytes the
	// path's batches held at once.
	UnitPathPeakRSSMB = "path-peak-RSS-MB"
	UnitHarnessRSSMB  = "harness-RSS-MB"
	UnitArrowPeakMB   = "arrow-peak-MB"

	// Checkpointing and recovery.
	UnitCkptP99   = "ckpt-p99-ms"
	UnitRecoverMs = "recover-ms"
	UnitReplayRec = "replay-rec"
	UnitLostRec   = "lost-rec"
	UnitDupRec    = "dup-rec"

	// The serving ceiling's (path=ceiling): record batches as the broker
	// stored and served them (compressed, headers included), not the value
	// bytes MB/s counts; and the Fetch requests it took.
	UnitWireMBPerSec = "wire-MB/s"
	UnitFetches      = "fetches"

	// Descriptions of the run, never judged.
	UnitWindowMs       = "window-ms"
	UnitRecPerCrossing = "rec/crossing"

	// The whole machine over a cell's read (ladder/rung/hostcpu_linux.go,
	// docs/metrics.md): its busy CPU per record (every process: the path,
	// the brokers, any neighbour), its busy CPUs on average, and the rate
	// at which all its CPUs would be busy at that CPU per record. On a
	// shared host they carry the neighbours' load; descriptions, never
	// judged.
	UnitHostCPUNsPerRec    = "host-cpu-ns/rec"
	UnitHostBusyCores      = "host-busy-cores"
	UnitHostBoundRecPerSec = "host-bound-rec/s"

	// librdkafka's own statistics over a bounded read of an rdkstats cell
	// (ladder/rung/rdkstats.go, docs/metrics.md): the messages waiting in
	// the client's queues for the reader (mean over the samples), the
	// brokers' mean round trip, and the records and the kilobytes
	// received per Fetch request. Descriptions, never judged.
	UnitRdkFetchqMsgs   = "rdk-fetchq-msgs"
	UnitRdkRttMs        = "rdk-rtt-ms"
	UnitRdkRecPerFetch  = "rdk-rec/fetch"
	UnitRdkKBPerFetch   = "rdk-KB/fetch"
	UnitRdkStatsSamples = "rdk-samples"

	// Parity cases: rows delivered (tombstones among them), and how long
	// the read took to finish at its stop or to surface its failure.
	UnitRec      = "rec"
	UnitNullRec  = "null-rec"
	UnitFinishMs = "finish-ms"
	UnitFailMs   = "fail-ms"

	// Live cells (mode=live): end-to-end latency percentiles of the
	// measured window (intended send time to the row handed over in a
	// verified batch; LatencyFile keeps the whole histogram), the most
	// the reader fell behind the producer's schedule (records, and the
	// time the producer takes to write that many at its rate), the rate
	// the producer achieved and the most it fell behind its own schedule,
	// and the mean rows per batch the linger rule handed over.
	UnitE2EP50Ms         = "e2e-p50-ms"
	UnitE2EP90Ms         = "e2e-p90-ms"
	UnitE2EP99Ms         = "e2e-p99-ms"
	UnitE2EP999Ms        = "e2e-p999-ms"
	UnitE2EMaxMs         = "e2e-max-ms"
	UnitLagMaxRec        = "lag-max-rec"
	UnitLagMaxMs         = "lag-max-ms"
	UnitProduceRecPerSec = "produce-rec/s"
	UnitProducerBehindMs = "producer-behind-ms"
	UnitRecPerBatch      = "rec/batch"
	// UnitCompressedPct is the share of a live compression cell's records
	// its producer wrote in batches of the cell's codec (the rest went
	// plain: the codec would not shrink their batch).
	UnitCompressedPct = "compressed-pct"
	// A maxrate cell's: the highest rate its search found sustained, and
	// how many live trials the search ran.
	UnitMaxRate       = "max-rate-rec/s"
	UnitMaxRateTrials = "maxrate-trials"

	// A wake cell's (wake=<interval>): how many wake-ups found the reader
	// in a Next, and the time from each (a cancel of that Next) to the
	// reader returning control, in microseconds.
	UnitWakes   = "wakes"
	UnitWakeP50 = "wake-p50-us"
	UnitWakeP99 = "wake-p99-us"
	UnitWakeMax = "wake-max-us"

	// A pause cell's (pause=<interval>): how many partitions it paused,
	// the most rows of a paused partition handed over after its Pause
	// returned (taken into the batch being built before it), how long the Pause and Resume calls took (a partition holds once
	// Pause returns; Resume includes the seek back to its position), in
	// microseconds, and the time from a Resume to that partition's first
	// row, in milliseconds.
	UnitPauses         = "pauses"
	UnitPauseHoldRec   = "pause-hold-rec"
	UnitPauseP99       = "pause-call-p99-us"
	UnitPauseMax       = "pause-call-max-us"
	UnitResumeP99      = "resume-call-p99-us"
	UnitResumeMax      = "resume-call-max-us"
	UnitResumeFirstP99 = "resume-first-p99-ms"
	UnitResumeFirstMax = "resume-first-max-ms"

	// A commit=on checkpoint cell's: offset commits of completed
	// checkpoints that succeeded, failed (reported, not fatal), and were
	// skipped for a newer one before they were sent; how long a commit
	// took (it runs off the read path).
	UnitOffsetCommits = "offset-commits"
	UnitOffsetFailed  = "offset-commit-failed"
	UnitOffsetSkipped = "offset-commit-skipped"
	UnitOffsetP50     = "offset-commit-p50-ms"
	UnitOffsetMax     = "offset-commit-max-ms"

	// A discover cell's (discover=<interval>): how many partitions it
	// added mid-read, how long creating them and writing their records
	// took (the admin call and the acknowledged writes, before which
	// nothing of theirs could be read), and the time from their creation
	// to each one's first row handed over, in milliseconds.
	UnitDiscoverAdded    = "discover-added"
	UnitDiscoverWriteMs  = "discover-write-ms"
	UnitDiscoverFirstP50 = "discover-first-p50-ms"
	UnitDiscoverFirstMax = "discover-first-max-ms"

	// A decode micro-benchmark row's (micro=decode/...): one route's wall
	// and CPU time, records per second, and Go heap bytes and allocations
	// per record decoded into verified Arrow batches (workloads/stock).
	// They judge the decoders, so the speed guard (speed.yaml) fails on
	// them.
	UnitDecNsPerRec     = "dec-ns/rec"
	UnitDecRecPerSec    = "dec-rec/s"
	UnitDecCPUNsPerRec  = "dec-cpu-ns/rec"
	UnitDecBytesPerRec  = "dec-B/rec"
	UnitDecAllocsPerRec = "dec-allocs/rec"
)

// ConfigSurfaced is the file-config key under which a parity cell that
// must fail records the one error line the path surfaced.
const ConfigSurfaced = "surfaced"

// unitDirections is the explicit table behind Better.
var unitDirections = map[string]Direction{
	UnitRecPerSec: HigherIsBetter,
	UnitMBPerSec:  HigherIsBetter,

	UnitNsPerRec:     LowerIsBetter,
	UnitCPUNsPerRec:  LowerIsBetter,
	UnitBytesPerRec:  LowerIsBetter,
	UnitAllocsPerRec: LowerIsBetter,
	UnitPeakRSSMB:    LowerIsBetter,
	UnitStartupMs:    LowerIsBetter,

	UnitPathPeakRSSMB: LowerIsBetter,
	UnitHarnessRSSMB:  Neutral,
	UnitArrowPeakMB:   LowerIsBetter,

	UnitRecoverMs: LowerIsBetter,
	UnitReplayRec: LowerIsBetter,
	UnitLostRec:   LowerIsBetter,
	UnitDupRec:    LowerIsBetter,

	UnitPctCeiling:      HigherIsBetter,
	UnitPctTwin:         HigherIsBetter,
	UnitPctTwinExVerify: HigherIsBetter,

	UnitWireMBPerSec: HigherIsBetter,
	UnitFetches:      Neutral,

	UnitWindowMs:       Neutral,
	UnitRecPerCrossing: Neutral,
	UnitVerifyNsPerRec: Neutral,

	UnitHostCPUNsPerRec:    Neutral,
	UnitHostBusyCores:      Neutral,
	UnitHostBoundRecPerSec: Neutral,
	UnitPctTwinHostBound:   Neutral,

	UnitRdkFetchqMsgs:   Neutral,
	UnitRdkRttMs:        Neutral,
	UnitRdkRecPerFetch:  Neutral,
	UnitRdkKBPerFetch:   Neutral,
	UnitRdkStatsSamples: Neutral,
	UnitRec:             Neutral,
	UnitNullRec:         Neutral,
	UnitFinishMs:        LowerIsBetter,
	UnitFailMs:          LowerIsBetter,

	UnitE2EP50Ms:         LowerIsBetter,
	UnitE2EP90Ms:         LowerIsBetter,
	UnitE2EP99Ms:         LowerIsBetter,
	UnitE2EP999Ms:        LowerIsBetter,
	UnitE2EMaxMs:         LowerIsBetter,
	UnitLagMaxRec:        LowerIsBetter,
	UnitLagMaxMs:         LowerIsBetter,
	UnitProduceRecPerSec: Neutral,
	UnitProducerBehindMs: Neutral,
	UnitRecPerBatch:      Neutral,
	UnitCompressedPct:    Neutral,
	UnitMaxRate:          HigherIsBetter,
	UnitMaxRateTrials:    Neutral,

	UnitWakes:   Neutral,
	UnitWakeP50: LowerIsBetter,
	UnitWakeP99: LowerIsBetter,
	UnitWakeMax: LowerIsBetter,

	UnitPauses:         Neutral,
	UnitPauseHoldRec:   LowerIsBetter,
	UnitPauseP99:       LowerIsBetter,
	UnitPauseMax:       LowerIsBetter,
	UnitResumeP99:      LowerIsBetter,
	UnitResumeMax:      LowerIsBetter,
	UnitResumeFirstP99: LowerIsBetter,
	UnitResumeFirstMax: LowerIsBetter,

	UnitOffsetCommits: Neutral,
	UnitOffsetFailed:  LowerIsBetter,
	UnitOffsetSkipped: Neutral,
	UnitOffsetP50:     LowerIsBetter,
	UnitOffsetMax:     LowerIsBetter,

	UnitDiscoverAdded:    Neutral,
	UnitDiscoverWriteMs:  Neutral,
	UnitDiscoverFirstP50: LowerIsBetter,
	UnitDiscoverFirstMax: LowerIsBetter,

	UnitDecNsPerRec:     LowerIsBetter,
	UnitDecRecPerSec:    HigherIsBetter,
	UnitDecCPUNsPerRec:  LowerIsBetter,
	UnitDecBytesPerRec:  LowerIsBetter,
	UnitDecAllocsPerRec: LowerIsBetter,
}

// Better returns the direction in which unit improves: the table above,
// plus every checkpoint latency "ckpt-<anything>-ms" (p50, p99, max,
// alignment wait, snapshot) as LowerIsBetter. Anything else is Neutral.
func Better(unit string) Direction {
	if d, ok := unitDirections[unit]; ok {
		return d
	}
	if strings.HasPrefix(unit, "ckpt-") && strings.HasSuffix(unit, "-ms") {
		return LowerIsBetter
	}
	return Neutral
}

// Worse reports whether going from old to new (both centers of unit) is a
// change for the worse, and by how much as a positive fraction of old.
// Neutral units and a zero old value never count as worse.
func Worse(unit string, old, new float64) (worse bool, by float64) {
	if old == 0 {
		return false, 0
	}
	change := new/old - 1
	switch Better(unit) {
	case HigherIsBetter:
		return change < 0, -change
	case LowerIsBetter:
		return change > 0, change
	}
	return false, 0
}

package ladder

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
	"strconv"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/internal/oneline"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
)

// rungCell is the child's view of entry e: the cell plus how to reach its
// corpus, encoded as argv by rungargs.Cell.Args (the one encoding, which a
// checkpointing rung also uses to start its readers). The child's own
// timeout is a little shorter than the ladder's hard one, so a slow cell
// reports its own clear error before it is killed. Expected row hashes are
// cached in the run directory runDir (its hashes directory; none when
// runDir is ""), so only the first cell per corpus computes them. Secret
// cluster props are not in argv: the child reads rungSecrets on a pipe. A
// broker_kill cell gets its cluster's fault socket; a cluster without one
// leaves it empty, which the child refuses.
//
// A live cell has no corpus, so topic is not its: it gets liveTopic (the
// child makes the topic under that name plus a nonce of its own, and
// deletes it), the records its producer writes at the cell's rate over the
// spec's live_warmup and duration, and LiveDir(runDir) for its latency
// histogram and lag series, which the caller makes. A maxrate cell is
// given the same at its largest trial's rate, max_rate.to, and the
// spec's search (from, to, p99).
func rungCell(s *Spec, e Entry, cl Cluster, topic, runDir string) rungargs.Cell {
	c := e.Cell
	rc := rungargs.Cell{
		Cell: c, Bootstrap: cl.Bootstrap(), Topic: topic, Partitions: s.Partitions, Records: s.Records,
		Seed: s.Seed, Schema: s.Schema, Timeout: childTimeout(s.Timeout),
		Props: cellProps(s, c, cl),
	}
	if runDir != "" {
		rc.HashCache = filepath.Join(runDir, "hashes")
	}
	if c.Ckpt > 0 && s.Failures > 0 {
		rc.Failures = s.Failures
		rc.KillSeed = killSeed(s.Seed, c.Name(), e.Rep)
	}
	if c.Fault != "" {
		if f, ok := cl.(interface{ FaultSocket() string }); ok {
			rc.FaultSocket = f.FaultSocket()
		}
	}
	if c.RdkStats > 0 && runDir != "" && !e.Warmup {
		// a bounded rdkstats cell keeps its statistics beside the live
		// cells' (results.StatsPath)
		rc.Rep, rc.LiveDir = e.Rep, LiveDir(runDir)
	}
	if c.Live() {
		rc.Topic = liveTopic(c, e.Rep)
		rc.Records = s.topRecords(c)
		rc.Warmup, rc.Duration = s.LiveWarmup, s.Duration
		s.maxRateArgs(&rc)
		rc.Rep = e.Rep
		if runDir != "" && !e.Warmup {
			// a warm-up's latencies are not the run's: kept nowhere
			rc.LiveDir = LiveDir(runDir)
		}
	}
	return rc
}

// liveTopic names the topic of one live cell-repetition (rep -1 for a
// warm-up): a hash of the cell's name keeps it short and a valid Kafka
// topic name whatever the name holds ([a-zA-Z0-9._-], at most 249
// characters, here 30 to 32, so the child's nonce fits).
func liveTopic(c cell.Cell, rep int) string {
	h := fnv.New64a()
	h.Write([]byte(c.Name()))
	return fmt.Sprintf("fplab-live-%016x-r%d", h.Sum64(), rep)
}

// LiveDir is where the live cells of a run keep their latency histograms
// and lag series (the child names the files after the cell and the
// repetition).
func LiveDir(runDir string) string { return filepath.Join(runDir, results.LiveDir) }

// rungSecrets are the secret cluster props of entry e's child, which
// rungArgs leaves out of argv (announcing --secrets-fd instead): pass them
// as childCmd.Secrets.
func rungSecrets(s *Spec, e Entry, cl Cluster) map[string]string {
	_, secrets := cell.SplitSecrets(cellProps(s, e.Cell, cl))
	return secrets
}

// cellProps are the client properties a cell's child uses: the spec's, for
// an external cluster; the cell's user's, for a cluster with users.
func cellProps(s *Spec, c cell.Cell, cl Cluster) map[string]string {
	if c.Cluster == cell.ClusterExternal {
		return s.ClusterProps
	}
	if p, ok := cl.(cellProper); ok {
		return p.CellProps(c)
	}
	return nil
}

// childTimeout leaves the ladder's hard timeout a margin over the child's.
func childTimeout(hard time.Duration) time.Duration {
	margin := hard / 10
	if margin > 5*time.Second {
		margin = 5 * time.Second
	}
	return hard - margin
}

// windowUnit is the metric holding the child's measured window.
const windowUnit = results.UnitWindowMs

// rowOf turns a child's outcome into the journal row of entry e.
func rowOf(e Entry, timeout time.Duration, r childResult) results.Row {
	row := results.Row{Cell: e.Cell.Name(), Rep: e.Rep, Start: r.Start, End: r.End}
	fail := func(reason string) results.Row {
		row.Reason = reason
		row.Signal = r.Signal
		row.StderrTail = r.StderrTail
		return row
	}
	switch {
	case r.StartErr != nil:
		return fail("start: " + oneline.Err(r.StartErr))
	case r.TimedOut:
		return fail(fmt.Sprintf("timeout: no result within %v; child process group killed", timeout))
	case r.Signal != "" && r.Exit <= 0:
		return fail("crashed: killed by signal " + r.Signal)
	case r.Exit != 0:
		msg := fmt.Sprintf("exit status %d", r.Exit)
		if r.Signal != "" {
			msg += " (runtime crash on " + r.Signal + ")"
		}
		if r.LastLine != "" {
			msg += ": " + r.LastLine
		}
		return fail(msg)
	}
	b, err := results.ParseBench(r.Stdout)
	if err != nil {
		return fail("bad output: " + oneline.Err(err))
	}
	if b.Name != row.Cell {
		return fail(fmt.Sprintf("bad output: child reported cell %s, want %s", b.Name, row.Cell))
	}
	row.OK, row.Iters, row.Metrics, row.Config = true, b.Iters, b.Metrics, b.Config
	row.Measured = windowOf(b.Metrics)
	return row
}

func windowOf(ms []results.Metric) time.Duration {
	for _, m := range ms {
		if m.Unit == windowUnit {
			return time.Duration(m.Value * float64(time.Millisecond))
		}
	}
	return 0
}

// summary is the progress text of a row.
func summary(r results.Row) string {
	if !r.OK {
		return "FAILED " + r.Reason
	}
	for _, m := range r.Metrics {
		if m.Unit == results.UnitRecPerSec {
			return strconv.FormatFloat(m.Value, 'f', 0, 64) + " " + results.UnitRecPerSec
		}
	}
	return "ok"
}

// killSeed derives a cell-repetition's kill seed from the spec seed, so
// every cell and repetition loses its readers at different positions, and
// a rerun of the spec at the same ones.
func killSeed(seed uint64, cell string, rep int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s/%d", seed, cell, rep)
	if v := h.Sum64(); v != 0 {
		return v
	}
	return 1
}

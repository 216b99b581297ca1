package ladder

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/ladder/rung"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/workloads"
)

// rungArgs builds the argv (after the binary) of `fplab rung` for one
// entry. The encoding is rung.Cell.Args, the same one a checkpointing rung
// uses to start its readers. The child's own timeout is a little shorter
// than the ladder's hard one, so a slow cell reports its own clear error
// before it is killed. Expected row hashes are cached in the run directory
// (hashDir), so only the first cell per corpus computes them. Secret
// cluster props are not in argv: the child reads rungSecrets on a pipe.
func rungArgs(s *Spec, e Entry, bootstrap []string, topic, hashDir string) []string {
	c := e.Cell
	rc := rung.Cell{
		Path: source.Path(c.Path), Format: workloads.Format(c.Format), Batch: c.Batch,
		Brokers: c.Brokers, Alloc: c.Alloc, CRC: c.CRC == "on", Cluster: c.Cluster,
		Bootstrap: bootstrap, Topic: topic, Partitions: s.Partitions, Records: s.Records,
		Seed: s.Seed, Schema: s.Schema, Timeout: childTimeout(s.Timeout), HashCache: hashDir,
		CkptInterval: c.Ckpt,
	}
	if c.Ckpt > 0 && s.Failures > 0 {
		rc.Failures = s.Failures
		rc.KillSeed = killSeed(s.Seed, c.Name(), e.Rep)
	}
	rc.Props = cellProps(s, c)
	if c.Prof {
		rc.Tags = append(rc.Tags, "prof=on")
	}
	if c.Fault != "" {
		rc.Tags = append(rc.Tags, "fault="+c.Fault)
	}
	if c.Tag != "" {
		rc.Tags = append(rc.Tags, c.Tag)
	}
	return append([]string{"rung"}, rc.Args()...)
}

// rungSecrets are the secret cluster props of entry e's child, which
// rungArgs leaves out of argv (announcing --secrets-fd instead): pass them
// as childCmd.Secrets.
func rungSecrets(s *Spec, e Entry) map[string]string {
	_, secrets := clusters.SplitSecrets(cellProps(s, e.Cell))
	return secrets
}

// cellProps are the client properties a cell's child uses: the spec's, for
// an external cluster only.
func cellProps(s *Spec, c Cell) map[string]string {
	if c.Cluster == "external" {
		return s.ClusterProps
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
const windowUnit = "window-ms"

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
		return fail("start: " + oneLine(r.StartErr))
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
	cell, iters, metrics, config, err := results.ParseBench(r.Stdout)
	if err != nil {
		return fail("bad output: " + oneLine(err))
	}
	if !sameCell(cell, row.Cell) {
		return fail(fmt.Sprintf("bad output: child reported cell %s, want %s", cell, row.Cell))
	}
	row.OK, row.Iters, row.Metrics, row.Config = true, iters, metrics, config
	row.Measured = windowOf(metrics)
	return row
}

// sameCell accepts the child's name with or without the cluster part (the
// rung child does not print it).
func sameCell(got, want string) bool {
	if got == want {
		return true
	}
	parts := strings.Split(want, "/")
	kept := parts[:0]
	for _, p := range parts {
		if !strings.HasPrefix(p, AxisCluster+"=") {
			kept = append(kept, p)
		}
	}
	return got == strings.Join(kept, "/")
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
		if m.Unit == "rec/s" {
			return strconv.FormatFloat(m.Value, 'f', 0, 64) + " rec/s"
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

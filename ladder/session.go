package ladder

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/internal/oneline"
	"github.com/fastpathlab/fplab/results"
)

// runner executes one session of a run: a fresh Run or a Resume.
type runner struct {
	spec     *Spec
	sch      *Schedule
	bins     map[string]string
	opt      Options
	infra    Infra
	dir      string
	manifest results.Manifest
	scratch  *scratch // this session's temporary files (scratch.go)
}

type group struct {
	format string
	topic  cell.Cell // topicParts
	shape  Shape
}

// groupOf is the corpus group of a cell: one topic per format, topic
// shape (codec, record size, tombstones, transactions, topic-changing
// parity case) and cluster shape. It means nothing for a live cell, which
// has no corpus (hasCorpus).
func groupOf(c cell.Cell) group {
	return group{format: c.Format, topic: topicParts(c), shape: shapeOf(c)}
}

// hasCorpus reports whether a cell reads a loaded corpus: a bounded cell
// does; a live cell's child makes, writes and deletes a topic of its own
// (rungCell), so no corpus is loaded, estimated or kept for it.
func hasCorpus(c cell.Cell) bool { return !c.Live() }

// todo lists the entries this session runs: every measured entry not in
// done, preceded by the warm-up rounds when any measured entry is left.
func (r *runner) todo(done map[results.CellRep]bool) []Entry {
	var warm, meas []Entry
	for _, round := range r.sch.Rounds {
		for _, e := range round {
			switch {
			case e.Warmup:
				warm = append(warm, e)
			case !done[results.CellRep{Cell: e.Cell.Name(), Rep: e.Rep}]:
				meas = append(meas, e)
			}
		}
	}
	if len(meas) == 0 {
		return nil
	}
	return append(warm, meas...)
}

// execute runs the session and writes the run's outputs. The error says
// why the session stopped (interrupt, infrastructure) or, when it ran to
// the end, that the run holds failed rows (FailedCellsError).
func (r *runner) execute(ctx context.Context, done map[results.CellRep]bool) (err error) {
	start := time.Now()
	todo := r.todo(done)
	prog := newProgress(r.opt.Progress, len(todo), start)
	var measured time.Duration
	defer func() {
		prog.finish()
		rows, ferr := r.finish(start, measured, prog)
		if err == nil {
			err = ferr
		}
		if err == nil {
			err = failedCells(r.dir, rows)
		}
	}()
	if len(todo) == 0 {
		prog.note("nothing left to run in %s", r.dir)
		return nil
	}
	for _, d := range sweepScratch(os.TempDir()) {
		prog.note("removed %s, left by a ladder that died", d)
	}
	if r.scratch, err = newScratch(os.TempDir()); err != nil {
		return err
	}
	defer r.scratch.remove()
	if err := removeStaleNodeData(r.dir); err != nil {
		return err
	}
	jr, err := results.OpenJournal(filepath.Join(r.dir, results.JournalFile))
	if err != nil {
		return r.journalError(err)
	}
	defer jr.Close()

	clusters, topics, stop, err := r.setUp(ctx, todo, prog)
	defer stop()
	if err != nil {
		return err
	}
	for i, e := range todo {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted after %d of %d child runs; resume with the run directory %s", i, len(todo), r.dir)
		}
		cl := clusters[shapeOf(e.Cell)]
		topic := "" // a live cell's: rungCell names it
		if hasCorpus(e.Cell) {
			topic = topics[groupOf(e.Cell)]
		}
		rc := rungCell(r.spec, e, cl, topic, r.dir)
		rc.CPUProfile, rc.MemProfile = r.profiles(e)
		if rc.LiveDir != "" {
			// As for profiles: a directory that cannot be made fails the
			// child, whose row says why.
			_ = os.MkdirAll(rc.LiveDir, 0o755)
		}
		res := runChild(ctx, childCmd{
			Bin:     r.bins[e.Cell.Alloc],
			Args:    append([]string{"rung"}, rc.Args()...),
			Secrets: rungSecrets(r.spec, e, cl),
			Env:     r.opt.ChildEnv,
			Timeout: r.spec.Timeout,
			Grace:   r.opt.Grace,
			CPUs:    r.opt.CellCPUs,
			TmpBase: r.scratch.dir,
		})
		if res.Canceled {
			return fmt.Errorf("interrupted during %s; resume with the run directory %s", e.Cell.Name(), r.dir)
		}
		row := rowOf(e, r.spec.Timeout, res)
		if !row.OK {
			// A failed attempt's profiles are cut short where the child
			// stopped, and pprof cannot read them: none is kept. A resume
			// runs a cell stopped by its infrastructure again, profiled.
			removeProfiles(rc.CPUProfile, rc.MemProfile)
			if cause := r.infraCause(ctx, cl, row); cause != nil {
				if ctx.Err() != nil {
					return fmt.Errorf("interrupted during %s; resume with the run directory %s", e.Cell.Name(), r.dir)
				}
				prog.step(time.Now(), e, summary(row)+" (not journaled)")
				return fmt.Errorf("%w: %w; stopped after %d of %d child runs: %s failed (%s) and is not journaled; resume with the run directory %s",
					ErrInfra, cause, i, len(todo), e.Cell.Name(), row.Reason, r.dir)
			}
		}
		measured += row.Measured
		r.noteVersions(e.Cell.Alloc, row)
		if !e.Warmup {
			if err := jr.Append(row); err != nil {
				return r.journalError(err)
			}
			if r.opt.AfterRow != nil {
				r.opt.AfterRow(row)
			}
		}
		prog.step(time.Now(), e, summary(row))
	}
	return r.runMicro(ctx, jr, done, prog)
}

// infraCause tells a cell's own failure from one its infrastructure
// caused: a full disk (the child's error says ENOSPC) or a cluster that no
// longer answers (Cluster.Alive, bounded by Options.ProbeTimeout). It
// returns nil when the cell failed on its own.
func (r *runner) infraCause(ctx context.Context, cl Cluster, row results.Row) error {
	if diskFull(nil, row.Reason, row.StderrTail) {
		return fmt.Errorf("disk full (%s) under %s", syscall.ENOSPC, r.dir)
	}
	return r.probe(ctx, cl)
}

// journalError turns a failure to record a row into an infrastructure
// failure: the row is not (fully) journaled, so a resume runs it again.
func (r *runner) journalError(err error) error {
	cause := "cannot write the journal"
	if diskFull(err) {
		cause = "disk full writing the journal"
	}
	return fmt.Errorf("%w: %s: %w; resume with the run directory %s once fixed", ErrInfra, cause, err, r.dir)
}

// needsAuth reports whether a cell of shape sh is case=denied.
func needsAuth(todo []Entry, sh Shape) bool {
	for _, e := range todo {
		if shapeOf(e.Cell) == sh && e.Cell.Case == cell.CaseDenied {
			return true
		}
	}
	return false
}

// setUp starts one cluster per shape and loads one corpus per (format,
// shape) group that the entries need; live entries need their cluster
// only (hasCorpus). stop stops every started cluster and is safe to call
// whatever happened.
func (r *runner) setUp(ctx context.Context, todo []Entry, prog *progress) (map[Shape]Cluster, map[group]string, func(), error) {
	clusters := map[Shape]Cluster{}
	topics := map[group]string{}
	var order []Shape
	stop := func() {
		for _, s := range order {
			if err := clusters[s].Stop(); err != nil {
				prog.note("stop cluster %s: %v", s, oneline.Err(err))
			}
		}
	}
	for _, e := range todo {
		sh := shapeOf(e.Cell)
		if _, ok := clusters[sh]; !ok {
			prog.note("starting cluster %s", sh)
			c, err := r.infra.Start(ctx, ClusterSpec{Shape: sh, Partitions: r.spec.Partitions, Bootstrap: r.spec.Bootstrap, Props: r.spec.ClusterProps, Dir: r.dir, Scratch: r.scratch.dir,
				Auth: needsAuth(todo, sh)})
			if err != nil {
				if ctx.Err() != nil {
					return clusters, topics, stop, fmt.Errorf("interrupted while starting cluster %s; resume with the run directory %s", sh, r.dir)
				}
				return clusters, topics, stop, fmt.Errorf("%w: %w; resume with the run directory %s", ErrInfra, err, r.dir)
			}
			clusters[sh] = c
			order = append(order, sh)
		}
		if !hasCorpus(e.Cell) {
			continue
		}
		g := groupOf(e.Cell)
		if _, ok := topics[g]; !ok {
			t0 := time.Now()
			topic, err := r.load(ctx, clusters[sh], g)
			if err != nil {
				return clusters, topics, stop, err
			}
			topics[g] = topic
			prog.note("corpus %s on %s ready in %v", topic, sh, time.Since(t0).Round(time.Millisecond))
		}
	}
	return clusters, topics, stop, nil
}

// load loads one corpus within Options.LoadTimeout. A failed load is an
// infrastructure failure; when the cluster does not answer either, the
// error names that as the cause.
func (r *runner) load(ctx context.Context, cl Cluster, g group) (string, error) {
	timeout := r.opt.LoadTimeout
	lctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	topic, err := cl.Load(lctx, CorpusSpec{
		Format: g.format, Topic: g.topic, Schema: r.spec.Schema, Seed: r.spec.Seed,
		Records: r.spec.Records, Partitions: r.spec.Partitions,
	})
	if err == nil {
		return topic, nil
	}
	if ctx.Err() != nil {
		return "", fmt.Errorf("interrupted while loading the %s corpus on %s; resume with the run directory %s", g.format, g.shape, r.dir)
	}
	if lctx.Err() != nil {
		err = fmt.Errorf("no corpus after %v (Options.LoadTimeout): %w", timeout, err)
	}
	if aerr := r.probe(ctx, cl); aerr != nil {
		return "", fmt.Errorf("%w: %w; the %s corpus on %s could not be loaded (%v); resume with the run directory %s",
			ErrInfra, aerr, g.format, g.shape, oneline.Err(err), r.dir)
	}
	if diskFull(err) {
		return "", fmt.Errorf("%w: disk full loading the %s corpus on %s: %w; resume with the run directory %s", ErrInfra, g.format, g.shape, err, r.dir)
	}
	return "", fmt.Errorf("%w: load the %s corpus on %s: %w; resume with the run directory %s", ErrInfra, g.format, g.shape, err, r.dir)
}

// probe is Cluster.Alive within Options.ProbeTimeout.
func (r *runner) probe(ctx context.Context, cl Cluster) error {
	pctx, cancel := context.WithTimeout(ctx, r.opt.ProbeTimeout)
	defer cancel()
	return cl.Alive(pctx)
}

// noteVersions takes librdkafka, the allocator version and the build flags
// from the first OK child of each allocator. librdkafka comes from a
// "librdkafka" config line or a "client: librdkafka X" line.
func (r *runner) noteVersions(alloc string, row results.Row) {
	if !row.OK {
		return
	}
	lib := row.Config["librdkafka"]
	if v, ok := strings.CutPrefix(row.Config["client"], "librdkafka "); ok && lib == "" {
		lib = v
	}
	if lib != "" && r.manifest.Librdkafka == "" {
		r.manifest.Librdkafka = lib
	}
	if v := row.Config["alloc-version"]; v != "" && r.manifest.AllocVersions[alloc] == "" {
		r.manifest.AllocVersions[alloc] = v
	}
	if v := row.Config["build-flags"]; v != "" && r.manifest.BuildFlags == "" {
		r.manifest.BuildFlags = v
	}
}

// finish renders raw.txt and the tables from the whole journal and rewrites
// the manifest with the end time and this session's measured fraction. It
// returns the journal's rows.
func (r *runner) finish(start time.Time, measured time.Duration, prog *progress) ([]results.Row, error) {
	var errs []error
	rows, err := readRows(r.dir)
	if err != nil {
		errs = append(errs, err)
	} else {
		x := results.NewIndex(rows)
		errs = append(errs, writeRaw(r.dir, rows), writeTables(r.dir, x))
		if note := noiseNote(x, r.sch.Calibration); note != "" {
			prog.note("%s", note)
		}
	}
	end := time.Now()
	r.manifest.End = end
	if wall := end.Sub(start); wall > 0 {
		r.manifest.MeasuredFraction = float64(measured) / float64(wall)
	}
	errs = append(errs, results.WriteManifest(r.dir, r.manifest))
	for _, e := range errs {
		if e != nil {
			if diskFull(e) {
				return rows, fmt.Errorf("%w: disk full writing the outputs of %s: %w", ErrInfra, r.dir, e)
			}
			return rows, e
		}
	}
	return rows, nil
}

func readRows(dir string) ([]results.Row, error) {
	path := filepath.Join(dir, results.JournalFile)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	rows, _, err := results.ReadJournal(path)
	return rows, err
}

func writeRaw(dir string, rows []results.Row) error {
	path := filepath.Join(dir, results.RawFile)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := results.WriteRaw(f, rows); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// profiles are where a cell writes its profiles when the run (--profile)
// or the cell (profile: [off, on]) profiles, else "". Warm-up repetitions
// profile too, so a profiled cell's cost is the same in every round; their
// files are rep -1's (ProfilePaths). Checkpointing cells
// are not profiled: their process only supervises the reader processes
// that do the work.
func (r *runner) profiles(e Entry) (cpu, mem string) {
	if !(r.opt.Profile || e.Cell.Prof) || e.Cell.Ckpt > 0 {
		return "", ""
	}
	cpu, mem = ProfilePaths(r.dir, e.Cell.Name(), e.Rep)
	// A directory that cannot be made is not an error here: the child then
	// fails to create the file, and its failed row says why.
	_ = os.MkdirAll(filepath.Dir(cpu), 0o755)
	return cpu, mem
}

// ProfilePaths names the CPU and allocs profiles of one cell-repetition in
// a run directory.
func ProfilePaths(runDir, cell string, rep int) (cpu, mem string) {
	base := filepath.Join(runDir, "profiles", results.FileSafe(strings.ReplaceAll(cell, "/", ",")))
	return fmt.Sprintf("%s.r%d.cpu.pprof", base, rep), fmt.Sprintf("%s.r%d.allocs.pprof", base, rep)
}

// removeProfiles removes the profile files of a failed child ("" names
// none). A file that is not there is what it wants.
func removeProfiles(paths ...string) {
	for _, p := range paths {
		if p != "" {
			_ = os.Remove(p)
		}
	}
}

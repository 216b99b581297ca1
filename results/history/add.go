package history

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/results"
)

// Outcome is what Add did with a run.
type Outcome int

const (
	// Stored: the run was not in the store and now is.
	Stored Outcome = iota + 1
	// Unchanged: the run was in the store already, with the same rows.
	Unchanged
)

func (o Outcome) String() string {
	switch o {
	case Stored:
		return "stored"
	case Unchanged:
		return "unchanged"
	}
	return "Outcome(" + strconv.Itoa(int(o)) + ")"
}

// Added reports one Add.
type Added struct {
	RunID   string
	Outcome Outcome
	// Reps and Samples count the run's repetitions (OK or failed) and
	// their values, as stored.
	Reps, Samples int
	// Dirty marks a run from a tree with uncommitted changes: stored, but
	// its commit does not name the code that ran.
	Dirty bool
}

// ErrIncomplete, ErrNewerRun and ErrConflict are returned (wrapped) by Add
// for a run it refuses; nothing is written.
var (
	ErrIncomplete = errors.New("incomplete run")
	ErrNewerRun   = errors.New("run layout newer than this fplab's")
	ErrConflict   = errors.New("already in the store with different rows")
)

// AddOption configures one Add.
type AddOption func(*addConfig)

type addConfig struct {
	commitTime time.Time
}

// WithCommitTime records when the run's commit was made, which orders a
// series by commit when two commits ran on one host out of order.
func WithCommitTime(t time.Time) AddOption {
	return func(c *addConfig) { c.commitTime = t }
}

// entry is a run as the store keeps it.
type entry struct {
	id     string
	m      results.Manifest
	reps   []rep
	floors []results.Floor
	digest string
}

type rep struct {
	cell   string
	rep    int
	ok     bool
	reason string
	values []results.Metric
}

// RunID is the id a run directory is stored under: its base name, which
// the ladder makes from the start time and the host (20261207T060012Z-vm).
func RunID(dir string) string { return filepath.Base(filepath.Clean(dir)) }

// newEntry checks run and turns it into what the store keeps: every
// (cell, rep) once under results.Index's rule, with the values of the OK
// ones, and the floor of every unit the run's A/A pairs report.
func newEntry(run results.Run) (*entry, error) {
	id := RunID(run.Dir)
	m := run.Manifest
	switch {
	case m.End.IsZero():
		return nil, fmt.Errorf("run %s: %w: its ladder never finished (manifest.json has no end); finish it with fplab ladder --resume", id, ErrIncomplete)
	case run.Dropped > 0:
		return nil, fmt.Errorf("run %s: %w: journal.jsonl ends in a torn line", id, ErrIncomplete)
	case len(run.Rows) == 0:
		return nil, fmt.Errorf("run %s: %w: journal.jsonl has no rows", id, ErrIncomplete)
	case results.RunFormatOf(m) > results.RunFormat:
		return nil, fmt.Errorf("run %s: %w (layout %d, this fplab reads up to %d)", id, ErrNewerRun, results.RunFormatOf(m), results.RunFormat)
	}
	x := results.NewIndex(run.Rows)
	e := &entry{id: id, m: m, floors: x.Floors()}
	for _, r := range x.Rows() {
		rp := rep{cell: r.Cell, rep: r.Rep, ok: r.OK, reason: r.Reason}
		if r.OK {
			rp.values = r.Counted()
		}
		e.reps = append(e.reps, rp)
	}
	sort.Slice(e.reps, func(i, j int) bool {
		a, b := e.reps[i], e.reps[j]
		if a.cell != b.cell {
			return a.cell < b.cell
		}
		return a.rep < b.rep
	})
	e.digest = e.sum()
	return e, nil
}

// sum is a digest of everything the store keeps of a run but the time it
// was added: two adds of one run agree on it, and a run directory that
// changed since (rows added, a value edited) does not.
func (e *entry) sum() string {
	h := sha256.New()
	m := e.m
	fmt.Fprintf(h, "%s\n%s\n%t\n%s\n%s\n%s\n%s\n%s\n%t\n%d\n%s\n%s\n",
		e.id, m.GitCommit, m.GitDirty, m.Host.Key(), m.Host.Arch, m.GoVersion, m.Librdkafka,
		m.BuildFlags, m.Emulated, results.RunFormatOf(m),
		m.Start.UTC().Format(time.RFC3339Nano), m.End.UTC().Format(time.RFC3339Nano))
	for _, r := range e.reps {
		fmt.Fprintf(h, "%s\t%d\t%t\t%s\n", r.cell, r.rep, r.ok, r.reason)
		for _, v := range r.values {
			fmt.Fprintf(h, "\t%s=%s\n", v.Unit, strconv.FormatFloat(v.Value, 'g', -1, 64))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Add records run in the store, all or nothing. A run already stored with
// the same rows is Unchanged; with different rows it is refused
// (ErrConflict). An incomplete run (ErrIncomplete) and a run of a newer
// layout (ErrNewerRun) are refused before the store is touched.
func (s *Store) Add(ctx context.Context, run results.Run, opts ...AddOption) (Added, error) {
	var cfg addConfig
	for _, o := range opts {
		o(&cfg)
	}
	e, err := newEntry(run)
	if err != nil {
		return Added{}, err
	}
	a := Added{RunID: e.id, Reps: len(e.reps), Dirty: e.m.GitDirty}
	for _, r := range e.reps {
		a.Samples += len(r.values)
	}
	// A second writer of the same run may commit between this one's check
	// and its insert; the insert then fails on the run's key and the check,
	// run again, sees the other writer's rows.
	for attempt := 0; ; attempt++ {
		outcome, err := s.add(ctx, e, cfg)
		if err == nil {
			a.Outcome = outcome
			return a, nil
		}
		if attempt > 0 || errors.Is(err, ErrConflict) || ctx.Err() != nil {
			return Added{}, err
		}
		again, cerr := s.stored(ctx, e)
		if cerr != nil {
			return Added{}, cerr
		}
		if !again {
			return Added{}, err
		}
	}
}

// stored reports whether e's run is in the store; with other rows, it is
// an ErrConflict.
func (s *Store) stored(ctx context.Context, e *entry) (bool, error) {
	var digest string
	err := s.db.QueryRowContext(ctx, s.q(`SELECT digest FROM runs WHERE run_key = ?`), keyOf(e.id)).Scan(&digest)
	return s.same(e, digest, err)
}

func (s *Store) same(e *entry, digest string, err error) (bool, error) {
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("store %s: look up run %s: %w", s.where, e.id, err)
	case digest != e.digest:
		return true, fmt.Errorf("run %s: %w (stored digest %.12s, this run's %.12s); nothing changed", e.id, ErrConflict, digest, e.digest)
	}
	return true, nil
}

func (s *Store) add(ctx context.Context, e *entry, cfg addConfig) (Outcome, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("store %s: %w", s.where, err)
	}
	defer tx.Rollback()
	var digest string
	err = tx.QueryRowContext(ctx, s.q(`SELECT digest FROM runs WHERE run_key = ?`), keyOf(e.id)).Scan(&digest)
	if found, err := s.same(e, digest, err); err != nil || found {
		return Unchanged, err
	}
	m := e.m
	var commitTime any
	if !cfg.commitTime.IsZero() {
		commitTime = cfg.commitTime.UTC().Format(time.RFC3339)
	}
	runKey := keyOf(e.id)
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO runs (run_key, run_id, git_commit, git_dirty, commit_time,
		host_key, hostname, arch, cpu_model, cores, go_version, librdkafka, build_flags, emulated,
		run_format, started, ended, digest, added, spec_name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		runKey, e.id, m.GitCommit, b2i(m.GitDirty), commitTime,
		m.Host.Key(), m.Host.Hostname, m.Host.Arch, m.Host.CPUModel, m.Host.Cores, m.GoVersion,
		m.Librdkafka, m.BuildFlags, b2i(m.Emulated), results.RunFormatOf(m),
		m.Start.UTC().Format(time.RFC3339Nano), m.End.UTC().Format(time.RFC3339Nano), e.digest,
		time.Now().UTC().Format(time.RFC3339Nano), results.SpecName(m)); err != nil {
		return 0, fmt.Errorf("store %s: add run %s: %w", s.where, e.id, err)
	}
	cells := map[string]int64{}
	for _, r := range e.reps {
		if _, ok := cells[r.cell]; !ok {
			if cells[r.cell], err = s.addCell(ctx, tx, r.cell); err != nil {
				return 0, err
			}
		}
	}
	reps := newBatch(s, tx, `INSERT INTO reps (run_key, cell_key, rep, ok, reason) VALUES `, 5)
	samples := newBatch(s, tx, `INSERT INTO samples (run_key, cell_key, rep, unit, value) VALUES `, 5)
	for _, r := range e.reps {
		if err := reps.add(ctx, runKey, cells[r.cell], r.rep, b2i(r.ok), r.reason); err != nil {
			return 0, err
		}
	}
	if err := reps.flush(ctx); err != nil {
		return 0, err
	}
	for _, r := range e.reps {
		for _, v := range r.values {
			if err := samples.add(ctx, runKey, cells[r.cell], r.rep, v.Unit, v.Value); err != nil {
				return 0, err
			}
		}
	}
	if err := samples.flush(ctx); err != nil {
		return 0, err
	}
	for _, f := range e.floors {
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO floors (run_key, unit, detectable, pairs, short, biased)
			VALUES (?, ?, ?, ?, ?, ?)`), runKey, f.Unit, f.Detectable, f.Pairs, f.Short, b2i(f.Biased)); err != nil {
			return 0, fmt.Errorf("store %s: add run %s: %w", s.where, e.id, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("store %s: add run %s: %w", s.where, e.id, err)
	}
	return Stored, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// batch inserts rows a few hundred at a time, one statement each: a
// PostgreSQL store pays a round trip per statement, and a run holds tens
// of thousands of values.
type batch struct {
	s      *Store
	tx     *sql.Tx
	head   string
	width  int
	args   []any
	filled int
}

// batchRows is the rows per statement: 200 x 5 parameters stays far below
// both engines' limits on parameters per statement.
const batchRows = 200

func newBatch(s *Store, tx *sql.Tx, head string, width int) *batch {
	return &batch{s: s, tx: tx, head: head, width: width}
}

func (b *batch) add(ctx context.Context, vals ...any) error {
	b.args = append(b.args, vals...)
	b.filled++
	if b.filled == batchRows {
		return b.flush(ctx)
	}
	return nil
}

func (b *batch) flush(ctx context.Context) error {
	if b.filled == 0 {
		return nil
	}
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", b.width), ", ") + ")"
	query := b.head + strings.TrimSuffix(strings.Repeat(row+", ", b.filled), ", ")
	if _, err := b.tx.ExecContext(ctx, b.s.q(query), b.args...); err != nil {
		return fmt.Errorf("store %s: %w", b.s.where, err)
	}
	b.args, b.filled = b.args[:0], 0
	return nil
}

// Check reports whether Add would refuse run before it reads the store:
// an incomplete run, or one of a newer layout.
func Check(run results.Run) error {
	_, err := newEntry(run)
	return err
}

package checkpointcost

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// SuperviseOptions configure one supervised run over a bounded range.
type SuperviseOptions struct {
	// Store and Output are the directories the readers use (the same ones
	// the reader argv names); both must hold no checkpoint and no committed
	// output yet.
	Store, Output string
	// Start and Stop bound the range per partition: [Start[p], Stop[p]).
	Start, Stop []int64
	// Holes are the range's offsets without a deliverable record (nil:
	// none); see Verify.
	Holes Holes
	// Failures is how many readers to kill with SIGKILL (0: none).
	Failures int
	// Seed chooses the kill positions.
	Seed uint64
	// ReaderArgv returns the command line of reader process i (from 0); the
	// process must call Restore, open its source at the restored start, run
	// RunReader with its stdout as the event stream and exit 0 when it
	// returns nil.
	ReaderArgv func(i int) []string
	// ReaderFiles, if set, returns files that reader process i inherits as
	// file descriptors 3, 4, ... (exec.Cmd.ExtraFiles), e.g. the read end
	// of a pipe carrying secrets that must not appear in argv. The
	// supervisor closes them once the process has started.
	ReaderFiles func(i int) ([]*os.File, error)
	// StallTimeout ends the run with an error when a reader sends no event
	// for this long (0: 30 s).
	StallTimeout time.Duration
	// Stderr receives the readers' standard error (nil: os.Stderr).
	Stderr io.Writer
}

func (o *SuperviseOptions) validate() error {
	switch {
	case o.Store == "" || o.Output == "":
		return fmt.Errorf("supervise needs a store and an output directory")
	case o.ReaderArgv == nil:
		return fmt.Errorf("supervise needs ReaderArgv")
	case len(o.Stop) == 0 || len(o.Start) != len(o.Stop):
		return fmt.Errorf("supervise needs start and stop offsets for each partition (got %d and %d)", len(o.Start), len(o.Stop))
	case o.Failures < 0 || o.Failures > 10000:
		return fmt.Errorf("failures must be 0..10000, got %d", o.Failures)
	case o.StallTimeout < 0:
		return fmt.Errorf("negative stall timeout %v", o.StallTimeout)
	}
	for p := range o.Stop {
		if o.Start[p] < 0 || o.Stop[p] < o.Start[p] {
			return fmt.Errorf("partition %d range [%d, %d) is invalid", p, o.Start[p], o.Stop[p])
		}
	}
	if s, err := latestSnapshot(o.Store); err != nil {
		return err
	} else if s != nil {
		return fmt.Errorf("store %s already holds checkpoint %d; use an empty directory", o.Store, s.ID)
	}
	ents, err := os.ReadDir(filepath.Join(o.Output, committedDir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if len(ents) > 0 {
		return fmt.Errorf("output %s already holds committed data; use an empty directory", o.Output)
	}
	return nil
}

// Supervise runs reader processes over the range until one finishes,
// killing Failures of them at seeded positions, then verifies the
// committed output. The Result is filled as far as the run got even when
// an error is returned. It returns an error when a reader fails, stalls or
// prints something that is not an event, when a reader with a planned
// failure finishes instead of halting, when any checkpoint failed, and
// when the verifier finds lost, duplicate or out-of-range records.
func Supervise(ctx context.Context, opt SuperviseOptions) (Result, error) {
	if err := opt.validate(); err != nil {
		return Result{}, err
	}
	if opt.StallTimeout == 0 {
		opt.StallTimeout = 30 * time.Second
	}
	if opt.Stderr == nil {
		opt.Stderr = os.Stderr
	}
	var total int64
	for p := range opt.Stop {
		total += opt.Stop[p] - opt.Start[p]
	}
	targets, err := killTargets(opt.Seed, opt.Failures, total)
	if err != nil {
		return Result{}, err
	}
	s := &supervisor{opt: &opt, targets: targets}
	err = s.run(ctx)
	res := &s.res
	if err == nil && len(res.Failures) != opt.Failures {
		err = fmt.Errorf("%d of %d failures injected (internal error: every planned failure halts its reader)", len(res.Failures), opt.Failures)
	}
	if err == nil {
		res.Verdict, err = Verify(opt.Output, opt.Start, opt.Stop, opt.Holes)
		if err == nil && !res.Verdict.OK() {
			v := res.Verdict
			err = fmt.Errorf("committed output has %d lost and %d duplicate records (%d outside the range)", v.Lost, v.Dup, v.Extra)
		}
	}
	res.summarise()
	if err == nil && res.FailedCheckpoints > 0 {
		err = fmt.Errorf("%d checkpoints failed (first: %s)", res.FailedCheckpoints, res.FailedErr)
	}
	return *res, err
}

// killTargets draws n distinct positions (records read since the start of
// the range) in the first 90% of the range, sorted.
func killTargets(seed uint64, n int, total int64) ([]int64, error) {
	if n == 0 {
		return nil, nil
	}
	hi := total * 9 / 10
	if hi < int64(n) {
		return nil, fmt.Errorf("a range of %d records is too short for %d failures", total, n)
	}
	rng := rand.New(rand.NewPCG(seed, 0x636b70746b696c6c))
	seen := make(map[int64]bool, n)
	out := make([]int64, 0, n)
	for len(out) < n {
		t := 1 + rng.Int64N(hi)
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out, nil
}

type supervisor struct {
	opt     *SuperviseOptions
	targets []int64
	res     Result
}

// run starts readers one after the other until one finishes.
func (s *supervisor) run(ctx context.Context) error {
	var target []int64 // the killed reader's position, nil before the first kill
	for i := 0; i <= s.opt.Failures; i++ {
		inc := &incarnation{index: i, target: target, nStart: len(s.opt.Start)}
		var plan Plan
		if k := len(s.res.Failures); k < len(s.targets) {
			plan = Plan{Halt: true, HaltAt: s.targets[k], RangeStart: s.opt.Start, After: target}
		}
		err := s.runOne(ctx, inc, plan)
		s.res.Readers++
		s.res.Read += inc.read
		if inc.first != 0 && inc.last >= inc.first {
			s.res.Window += time.Duration(inc.last - inc.first)
		}
		if i == 0 && inc.first != 0 {
			s.res.Startup = time.Duration(inc.first - inc.started)
		}
		if err != nil {
			return err
		}
		if target != nil {
			if err := s.recovered(inc); err != nil {
				return err
			}
		}
		if !inc.killed {
			if plan.Halt {
				return fmt.Errorf("reader %d finished without halting at its planned failure (%d records in)", i, plan.HaltAt)
			}
			return nil
		}
		target = slices.Clone(inc.split)
		s.res.Failures = append(s.res.Failures, Failure{Reader: i, Pre: target, Wait: inc.wait})
	}
	return fmt.Errorf("reader %d was killed but no failures are left (internal error)", s.opt.Failures)
}

// recovered completes the last failure with the reader that followed it.
func (s *supervisor) recovered(inc *incarnation) error {
	f := &s.res.Failures[len(s.res.Failures)-1]
	f.Restored, f.RestoredID = inc.restored, inc.restoredID
	if len(f.Restored) != len(f.Pre) {
		return fmt.Errorf("reader %d restored %d partitions, the killed reader had %d", inc.index, len(f.Restored), len(f.Pre))
	}
	for p := range f.Pre {
		d := f.Pre[p] - f.Restored[p]
		if d < 0 {
			return fmt.Errorf("reader %d restored partition %d at %d, past the killed reader's %d", inc.index, p, f.Restored[p], f.Pre[p])
		}
		f.Replay += d
	}
	caught, first := inc.caughtUp, inc.first
	if caught == 0 {
		// Nothing left to read after the restore: back once it finished.
		if !inc.done || !atOrPast(inc.restored, f.Pre) {
			return fmt.Errorf("reader %d never got back to the killed reader's position", inc.index)
		}
		caught = inc.doneT
	}
	if first == 0 || first > caught {
		first = caught
	}
	f.Recover = time.Duration(caught - inc.started)
	f.Startup = time.Duration(first - inc.started)
	f.Catchup = f.Recover - f.Startup
	return nil
}

// atOrPast reports whether split is at or past target on every partition.
func atOrPast(split, target []int64) bool {
	if len(split) != len(target) {
		return false
	}
	for p := range target {
		if split[p] < target[p] {
			return false
		}
	}
	return true
}

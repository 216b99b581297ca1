package checkpointcost

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"syscall"
	"time"
)

// incarnation is what the supervisor knows about one reader process, from
// its events. Times are Unix nanoseconds.
type incarnation struct {
	index   int
	nStart  int
	target  []int64 // position to get back to (nil: first reader)
	started int64

	restoredID int
	restored   []int64
	split      []int64
	first      int64
	last       int64
	read       int64
	ckpts      int
	caughtUp   int64
	done       bool
	doneT      int64
	killed     bool
	wait       time.Duration // at the failure point, for a checkpoint
	errMsg     string
}

// handle applies one event of the reader's stream.
func (inc *incarnation) handle(ev *Event, res *Result) error {
	switch ev.Ev {
	case EvStart:
		if len(ev.Split) != inc.nStart {
			return fmt.Errorf("reader %d starts with %d partitions, the range has %d", inc.index, len(ev.Split), inc.nStart)
		}
		inc.restoredID, inc.restored = ev.Restored, slices.Clone(ev.Split)
		res.Subtasks = append(res.Subtasks, ev.Subtasks)
		inc.split = slices.Clone(ev.Split)
	case EvFirst:
		inc.first = ev.T
	case EvBatch:
		if len(ev.Split) != inc.nStart {
			return fmt.Errorf("reader %d reported %d partitions, the range has %d", inc.index, len(ev.Split), inc.nStart)
		}
		inc.read += ev.Rec
		inc.last = ev.T
		inc.split = ev.Split
		if inc.target != nil && inc.caughtUp == 0 && atOrPast(inc.split, inc.target) {
			inc.caughtUp = ev.T
		}
	case EvCkpt:
		if !ev.Final {
			inc.ckpts++
		}
		res.Checkpoints = append(res.Checkpoints, Checkpoint{
			ID: ev.ID, Reader: inc.index, Final: ev.Final, Forced: ev.Forced, Bytes: ev.Bytes,
			Align: time.Duration(ev.AlignNS), Snapshot: time.Duration(ev.SnapshotNS), Duration: time.Duration(ev.DurNS),
			Pause: time.Duration(ev.PauseNS),
		})
	case EvCkptFailed:
		if res.FailedCheckpoints == 0 {
			res.FailedErr = ev.Err
		}
		res.FailedCheckpoints++
	case EvCommit:
	case EvOffsets:
		if len(ev.Split) != inc.nStart {
			return fmt.Errorf("reader %d committed offsets of %d partitions, the range has %d", inc.index, len(ev.Split), inc.nStart)
		}
		if n := len(res.Offsets); n > 0 && ev.Err == "" && ev.ID <= res.LastOffsetsID && res.LastOffsets != nil {
			return fmt.Errorf("reader %d committed checkpoint %d's offsets after checkpoint %d's", inc.index, ev.ID, res.LastOffsetsID)
		}
		res.Offsets = append(res.Offsets, OffsetCommit{ID: ev.ID, Reader: inc.index, Split: ev.Split, Dur: time.Duration(ev.CommitNS), Err: ev.Err, Skipped: ev.Skipped})
		if ev.Err == "" {
			res.LastOffsets, res.LastOffsetsID = ev.Split, ev.ID
		}
	case EvHalt:
		if len(ev.Split) != inc.nStart {
			return fmt.Errorf("reader %d halted with %d partitions, the range has %d", inc.index, len(ev.Split), inc.nStart)
		}
		if inc.ckpts == 0 {
			return fmt.Errorf("reader %d halted without a checkpoint of its own", inc.index)
		}
		inc.split, inc.wait = ev.Split, time.Duration(ev.WaitNS)
		if inc.target != nil && inc.caughtUp == 0 && atOrPast(inc.split, inc.target) {
			// Restored at the end of the range, it had nothing to read.
			inc.caughtUp = ev.T
		}
	case EvDone:
		inc.done, inc.doneT = true, ev.T
		res.Memory = res.Memory.max(Memory{Peak: ev.PeakBytes, Harness: ev.HarnessBytes, Path: ev.PathBytes, Arrow: ev.ArrowBytes})
	case EvError:
		inc.errMsg = ev.Err
	default:
		return fmt.Errorf("reader %d sent unknown event %q", inc.index, ev.Ev)
	}
	return nil
}

// runOne runs one reader process to its end: it exits after its done
// event, or the supervisor kills it.
func (s *supervisor) runOne(ctx context.Context, inc *incarnation, plan Plan) error {
	argv := s.opt.ReaderArgv(inc.index)
	if len(argv) == 0 {
		return fmt.Errorf("empty argv for reader %d", inc.index)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = s.opt.Stderr
	// A reader must not outlive the supervisor's process.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("stdout pipe of reader %d: %w", inc.index, err)
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("stdin pipe of reader %d: %w", inc.index, err)
	}
	if s.opt.ReaderFiles != nil {
		files, err := s.opt.ReaderFiles(inc.index)
		if err != nil {
			return fmt.Errorf("files for reader %d: %w", inc.index, err)
		}
		cmd.ExtraFiles = files
	}
	inc.started = time.Now().UnixNano()
	err = cmd.Start()
	for _, f := range cmd.ExtraFiles {
		_ = f.Close()
	}
	if err != nil {
		return fmt.Errorf("start reader %d: %w", inc.index, err)
	}
	// The plan fits the pipe's buffer; a reader that exits without reading
	// it fails on its own terms below.
	_ = writePlan(in, plan)
	_ = in.Close()

	evs := make(chan Event, 256)
	var scanErr error
	var partial []byte
	go func() {
		defer close(evs)
		partial, scanErr = readEvents(out, inc.index, evs)
	}()

	// abort kills the reader and waits for it: no reader outlives runOne.
	abort := func(err error) error {
		_ = cmd.Process.Kill()
		for range evs {
		}
		_ = cmd.Wait()
		return err
	}
	stall := time.NewTimer(s.opt.StallTimeout)
	defer stall.Stop()
	for open := true; open; {
		select {
		case ev, ok := <-evs:
			if !ok {
				open = false
				break
			}
			stall.Reset(s.opt.StallTimeout)
			if err := inc.handle(&ev, &s.res); err != nil {
				return abort(err)
			}
			if ev.Ev == EvHalt {
				if err := cmd.Process.Kill(); err != nil {
					return abort(fmt.Errorf("kill reader %d: %w", inc.index, err))
				}
				inc.killed = true
			}
		case <-stall.C:
			return abort(fmt.Errorf("reader %d sent no event for %v", inc.index, s.opt.StallTimeout))
		case <-ctx.Done():
			return abort(fmt.Errorf("reader %d: %w", inc.index, ctx.Err()))
		}
	}
	if scanErr != nil {
		return abort(scanErr)
	}
	if partial != nil && !inc.killed {
		return abort(fmt.Errorf("reader %d ended in the middle of an event line", inc.index))
	}
	werr := cmd.Wait()
	switch {
	case inc.killed:
		return nil
	case werr != nil:
		msg := inc.errMsg
		if msg == "" {
			msg = "no error event"
		}
		return fmt.Errorf("reader %d failed: %w (%s)", inc.index, werr, msg)
	case !inc.done:
		return fmt.Errorf("reader %d exited without its done event", inc.index)
	}
	return nil
}

// readEvents decodes the event lines of r into evs until EOF. A last line
// without its newline is returned as partial, not decoded: a reader killed
// while the pipe was full can leave half an event behind.
func readEvents(r io.Reader, index int, evs chan<- Event) (partial []byte, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, rerr := br.ReadBytes('\n')
		if errors.Is(rerr, io.EOF) {
			if len(line) > 0 {
				return line, nil
			}
			return nil, nil
		}
		if rerr != nil {
			return nil, fmt.Errorf("read events of reader %d: %w", index, rerr)
		}
		var ev Event
		if err := json.Unmarshal(bytes.TrimSpace(line), &ev); err != nil || ev.Ev == "" {
			if len(line) > 80 {
				line = append(line[:80:80], "..."...)
			}
			return nil, fmt.Errorf("reader %d printed a line that is not an event: %q", index, bytes.TrimSpace(line))
		}
		evs <- ev
	}
}

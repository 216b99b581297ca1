package jvmref

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/fastpathlab/fplab/ladder/rung"
)

// LiveHandler is what RunLive tells as the program's live lines arrive:
// Ready once it can receive (start the producer now), HandOver for each
// hand-over (the FPLAB-R lines of one time, in order). An error from
// either ends the run: the program is killed and RunLive returns it.
type LiveHandler interface {
	Ready(ctx context.Context) error
	HandOver(at time.Time, rs []rung.LiveRange) error
}

// RunLive runs o (o.Live set) as Run does, reading the program's stdout
// as it arrives (the live protocol, liveproto.go): FPLAB-READY goes to
// h.Ready, each run of FPLAB-R lines with one time to h.HandOver, and the
// rest is kept for the result line (ParseResult, checked against
// o.Records) and the FPLAB-LIVE line (ParseLive) it returns.
func RunLive(ctx context.Context, java, jar string, o Opts, h LiveHandler) (Result, LiveResult, error) {
	if !o.Live {
		return Result{}, LiveResult{}, fmt.Errorf("RunLive of java %s without Opts.Live", o.Program)
	}
	argv, tmp, err := prepare(jar, o)
	if err != nil {
		return Result{}, LiveResult{}, err
	}
	defer os.RemoveAll(tmp)
	tctx, cancel := context.WithTimeout(ctx, o.Timeout+killGrace)
	defer cancel()
	cmd := jvmCommand(tctx, java, tmp, argv)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return Result{}, LiveResult{}, err
	}
	what := "java " + string(o.Program) + " --live"
	if err := cmd.Start(); err != nil {
		return Result{}, LiveResult{}, fmt.Errorf("%s: %w", what, err)
	}
	rest, lerr := readLive(tctx, bufio.NewReaderSize(out, 1<<16), h)
	if lerr != nil {
		cancel() // kills the process group; its stdout ends
	}
	err = cmd.Wait()
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if lerr != nil {
		return Result{}, LiveResult{}, lerr
	}
	if err := exitError(what, err, tctx.Err() != nil && ctx.Err() == nil, o.Timeout+killGrace, stderr.String()); err != nil {
		return Result{}, LiveResult{}, err
	}
	r, err := ParseResult(rest)
	if err != nil {
		return Result{}, LiveResult{}, err
	}
	if r.Program != o.Program {
		return Result{}, LiveResult{}, fmt.Errorf("%s printed the result of program %q", what, r.Program)
	}
	if r.Records != int64(o.Records) {
		return Result{}, LiveResult{}, fmt.Errorf("%s read %d records, the producer writes %d", what, r.Records, o.Records)
	}
	lr, err := ParseLive(rest, o.Partitions)
	if err != nil {
		return Result{}, LiveResult{}, err
	}
	r.ran(cmd)
	return r, lr, nil
}

// readLive reads a live program's stdout to its end: FPLAB-READY once,
// before any FPLAB-R line, to h.Ready; each run of consecutive FPLAB-R
// lines with one time to h.HandOver; every other line is returned. A
// malformed or misplaced live line, or an error of h, ends it.
func readLive(ctx context.Context, r *bufio.Reader, h LiveHandler) (string, error) {
	var (
		rest    strings.Builder
		ready   bool
		pending []rung.LiveRange
		at      time.Time
	)
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		err := h.HandOver(at, pending)
		pending = pending[:0]
		return err
	}
	for {
		line, err := r.ReadString('\n')
		if err != nil && line == "" {
			if ferr := flush(); ferr != nil {
				return "", ferr
			}
			return rest.String(), nil // EOF, or the pipe closed: the process's exit says why
		}
		line = strings.TrimRight(line, "\r\n")
		switch {
		case strings.HasPrefix(line, rangePre+" "):
			if !ready {
				return "", fmt.Errorf("a live range before %s: %q", readyLine, line)
			}
			t, rg, perr := ParseRange(line)
			if perr != nil {
				return "", perr
			}
			if len(pending) > 0 && !t.Equal(at) {
				if ferr := flush(); ferr != nil {
					return "", ferr
				}
			}
			at = t
			pending = append(pending, rg)
			continue
		case line == readyLine:
			if ready {
				return "", fmt.Errorf("%s printed twice", readyLine)
			}
			ready = true
			if err := h.Ready(ctx); err != nil {
				return "", err
			}
		default:
			rest.WriteString(line)
			rest.WriteByte('\n')
		}
		if ferr := flush(); ferr != nil {
			return "", ferr
		}
	}
}

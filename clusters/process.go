package clusters

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fastpathlab/fplab/internal/tail"
)

// stopGrace is how long Stop waits after SIGTERM before SIGKILL.
const stopGrace = 5 * time.Second

// stderrTailBytes is how much of the child's stderr errors quote.
const stderrTailBytes = 2048

// Embedded is a broker running in a child process (`fplab broker ...` or a
// test binary re-executed as one). Its stdin is a pipe held open by the
// parent: closing it, or the parent dying, stops the broker.
type Embedded struct {
	argv      []string
	cmd       *exec.Cmd
	stdin     *os.File
	stderr    *tail.Buffer
	bootstrap []string

	exited  chan struct{} // closed when the child has been waited for
	waitErr error         // set before exited is closed

	stopOnce sync.Once
	stopErr  error
	killed   atomic.Bool // Kill was called: the death was asked for
}

// StartEmbedded starts argv (the full command, e.g. {"/path/fplab",
// "broker", "--brokers", "3", "--partitions", "6"}) in its own process group
// with a pipe as stdin, and waits up to timeout for its bootstrap line. On
// timeout, early exit or ctx being done it kills the child and returns an
// error quoting the child's stderr tail. ctx bounds only the start-up; the
// child then runs until Stop.
func StartEmbedded(ctx context.Context, argv []string, timeout time.Duration) (*Embedded, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	return startEmbedded(ctx, argv, timeout, timer.C)
}

// startEmbedded is StartEmbedded with the start-up deadline as a channel:
// it gives up when expired delivers, and quotes timeout in the error.
// Tests inject the channel so that the deadline fires after an event (the
// child reached a known point), never after a race with the scheduler.
func startEmbedded(ctx context.Context, argv []string, timeout time.Duration, expired <-chan time.Time) (*Embedded, error) {
	if len(argv) == 0 {
		return nil, errors.New("empty broker command")
	}
	stdinR, stdinW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("broker stdin pipe: %w", err)
	}
	stdoutR, stdoutW, err := os.Pipe()
	if err != nil {
		stdinR.Close()
		stdinW.Close()
		return nil, fmt.Errorf("broker stdout pipe: %w", err)
	}
	e := &Embedded{
		argv:   append([]string(nil), argv...),
		stdin:  stdinW,
		stderr: tail.New(stderrTailBytes),
		exited: make(chan struct{}),
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin = stdinR
	cmd.Stdout = stdoutW
	cmd.Stderr = e.stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = time.Second
	e.cmd = cmd
	err = cmd.Start()
	// The child holds its own copies; the parent keeps only its ends.
	stdinR.Close()
	stdoutW.Close()
	if err != nil {
		stdinW.Close()
		stdoutR.Close()
		return nil, fmt.Errorf("start broker %q: %w", argv[0], err)
	}
	go func() {
		e.waitErr = cmd.Wait()
		close(e.exited)
	}()

	lines := make(chan lineResult, 1)
	go readBootstrap(stdoutR, lines)

	var failure, stdoutErr error
	for failure == nil {
		select {
		case r := <-lines:
			if r.err == nil {
				e.bootstrap = r.addrs
				return e, nil
			}
			// Stdout usually ends because the child is exiting: keep
			// waiting, so the error says how it exited.
			lines, stdoutErr = nil, r.err
		case <-e.exited:
			failure = fmt.Errorf("exited before printing its bootstrap line: %w", e.waitErr)
		case <-expired:
			failure = fmt.Errorf("did not print its bootstrap line within %v", timeout)
			if stdoutErr != nil {
				failure = fmt.Errorf("%w (%w)", failure, stdoutErr)
			}
		case <-ctx.Done():
			failure = fmt.Errorf("start-up abandoned: %w", ctx.Err())
		}
	}
	e.kill()
	return nil, fmt.Errorf("broker %s %w; stderr: %s", e.describe(), failure, e.stderrTail())
}

type lineResult struct {
	addrs []string
	err   error
}

// readBootstrap reports the first bootstrap line of r, then keeps draining
// r so the child never blocks on a full stdout pipe.
func readBootstrap(r *os.File, out chan<- lineResult) {
	defer r.Close()
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		addrs, ok, err := parseBootstrapLine(sc.Text())
		if !ok {
			continue
		}
		out <- lineResult{addrs: addrs, err: err}
		_, _ = io.Copy(io.Discard, r)
		return
	}
	err := sc.Err()
	if err == nil {
		err = io.EOF
	}
	out <- lineResult{err: fmt.Errorf("stdout ended without a bootstrap line: %w", err)}
}

// Bootstrap returns the broker addresses the child printed.
func (e *Embedded) Bootstrap() []string { return append([]string(nil), e.bootstrap...) }

// Pid returns the child's process id (also its process group id).
func (e *Embedded) Pid() int { return e.cmd.Process.Pid }

// Exited is closed once the child has exited and been reaped, whether Stop
// ended it or it died on its own, so that a caller can select on it beside
// a cell to tell "the broker died" from "the cell failed", and a test can
// wait for a death instead of polling /proc.
func (e *Embedded) Exited() <-chan struct{} { return e.exited }

// ExitErr is how the child exited (nil for status 0, else an
// *exec.ExitError); it is nil while the child runs, so read it after
// Exited is closed.
func (e *Embedded) ExitErr() error {
	select {
	case <-e.exited:
		return e.waitErr
	default:
		return nil
	}
}

// Stop ends the child: it closes stdin, sends SIGTERM to the child's process
// group, waits up to a few seconds, then sends SIGKILL. It returns nil when
// the child exited with status 0, died of that SIGTERM or was ended by
// Kill; a child that died on its own before Stop is reported. Calling it
// again returns the first result.
func (e *Embedded) Stop() error {
	e.stopOnce.Do(func() { e.stopErr = e.stop() })
	return e.stopErr
}

func (e *Embedded) stop() error {
	e.stdin.Close()
	select {
	case <-e.exited:
	default:
		_ = syscall.Kill(-e.Pid(), syscall.SIGTERM)
	}
	select {
	case <-e.exited:
	case <-time.After(stopGrace):
		e.kill()
		return fmt.Errorf("broker %s did not stop within %v of SIGTERM; killed; stderr: %s",
			e.describe(), stopGrace, e.stderrTail())
	}
	if e.waitErr != nil && !terminatedBySIGTERM(e.waitErr) && !e.killed.Load() {
		return fmt.Errorf("broker %s: %w; stderr: %s", e.describe(), e.waitErr, e.stderrTail())
	}
	return nil
}

// terminatedBySIGTERM reports whether the child died of the SIGTERM Stop
// sent, which is a clean stop for a child that does not handle it.
func terminatedBySIGTERM(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGTERM
}

// Kill SIGKILLs the child's process group and returns once the child has
// exited: the abrupt death of the infrastructure, for fault tests of what
// runs against the broker. A later Stop returns nil.
func (e *Embedded) Kill() {
	e.killed.Store(true)
	e.kill()
}

// kill sends SIGKILL to the child's process group and waits for the child.
func (e *Embedded) kill() {
	e.stdin.Close()
	_ = syscall.Kill(-e.Pid(), syscall.SIGKILL)
	<-e.exited
}

func (e *Embedded) describe() string {
	return fmt.Sprintf("pid %d (%s)", e.cmd.Process.Pid, e.argv[0])
}

func (e *Embedded) stderrTail() string {
	if s := e.stderr.String(); s != "" {
		return s
	}
	return "(empty)"
}

package ladder

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/fastpathlab/fplab/internal/tail"
	"github.com/fastpathlab/fplab/ladder/rungargs"
)

// childCmd is one child process to run with a hard timeout.
type childCmd struct {
	Bin     string
	Args    []string
	Env     []string // nil: inherit
	Timeout time.Duration
	Grace   time.Duration // SIGTERM -> SIGKILL delay
	CPUs    string        // pin to this CPU list ("0", "1-3"); empty: no pinning
	// Secrets are the child's secret cluster props, passed on an inherited
	// pipe at rungargs.SecretsFD (see rungargs.SecretPipe), never in Args or Env.
	Secrets map[string]string
	// TmpBase is where the child's TMPDIR is made: the ladder's scratch
	// directory (scratch.go); "" is os.TempDir().
	TmpBase string
}

// childResult is what came out of a child.
type childResult struct {
	Stdout     []byte
	StderrTail string // last stderrLines lines
	LastLine   string // last stderr line (the child's one-line error)
	Exit       int    // exit code; -1 if killed by a signal or not started
	Signal     string // "SIGSEGV" etc. when it died of a signal (or a Go runtime signal crash)
	TimedOut   bool
	Canceled   bool
	StartErr   error
	Start, End time.Time
}

const (
	stderrLines    = 20
	stderrKeep     = 64 << 10
	stdoutKeep     = 4 << 20
	defaultGrace   = 2 * time.Second
	waitDelayExtra = 2 * time.Second
)

// runChild starts the child in its own process group, waits for it and, past
// the timeout (time the ladder was running: budget.go) or on ctx cancellation, sends SIGTERM to the whole group and
// SIGKILL after the grace period. The group is SIGKILLed after a normal exit
// too, so no stray grandchild outlives its cell.
func runChild(ctx context.Context, cc childCmd) childResult {
	grace := cc.Grace
	if grace <= 0 {
		grace = defaultGrace
	}
	bin, args := cc.Bin, cc.Args
	if w := rungargs.WrapArgv(append([]string{bin}, args...)); w[0] != bin {
		// FPLAB_CHILD_WRAPPER, e.g. qemu-aarch64-static: a missing child is
		// still a start error, not the wrapper's exit status.
		if _, err := exec.LookPath(bin); err != nil {
			now := time.Now()
			return childResult{Exit: -1, StartErr: err, Start: now, End: now}
		}
		bin, args = w[0], w[1:]
	}
	if cc.CPUs != "" {
		bin, args = pinArgv(cc.CPUs, bin, args)
	}
	// Each child gets a TMPDIR of its own, removed once its process group
	// is gone: a cell killed at its timeout runs no clean-up of its own,
	// and its checkpoint store and sink output (ladder/rung/ckpt.go) or the
	// Java rung's files would stay behind.
	tmp, err := os.MkdirTemp(cc.TmpBase, "fplab-child-")
	if err != nil {
		now := time.Now()
		return childResult{Exit: -1, StartErr: fmt.Errorf("child's temporary directory: %w", err), Start: now, End: now}
	}
	defer os.RemoveAll(tmp)
	env := cc.Env
	if env == nil {
		env = os.Environ()
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(slices.Clone(env), "TMPDIR="+tmp)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	stdout := &limitBuffer{max: stdoutKeep}
	stderr := tail.New(stderrKeep)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = grace + waitDelayExtra

	res := childResult{Exit: -1, Start: time.Now()}
	files, err := rungargs.SecretPipe(cc.Secrets)
	if err == nil {
		cmd.ExtraFiles = files
		err = startPinned(cmd, cc.CPUs)
		for _, f := range files {
			f.Close() // the child holds its own copy
		}
	}
	if err != nil {
		res.StartErr = err
		res.End = time.Now()
		return res
	}
	pgid := cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	ticker := time.NewTicker(budgetTick(cc.Timeout))
	defer ticker.Stop()
	outcome, werr := waitChild(ctx, done, cc.Timeout, res.Start, ticker.C)
	switch outcome {
	case timedOut:
		res.TimedOut = true
		werr = killGroup(pgid, grace, done)
	case canceled:
		res.Canceled = true
		werr = killGroup(pgid, grace, done)
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	res.End = time.Now()
	_ = werr // the exit state is read from ProcessState below

	res.Stdout = stdout.Bytes()
	res.StderrTail = stderr.Lines(stderrLines)
	res.LastLine = stderr.Lines(1)
	if ps := cmd.ProcessState; ps != nil {
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.Signal = signalName(ws.Signal())
		} else {
			res.Exit = ps.ExitCode()
		}
	}
	if res.Signal == "" && res.Exit != 0 {
		res.Signal = runtimeSignal(string(stderr.Bytes()))
	}
	return res
}

// killGroup sends SIGTERM to the process group, then SIGKILL after grace,
// and returns the Wait error.
func killGroup(pgid int, grace time.Duration, done <-chan error) error {
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	return <-done
}

func signalName(s syscall.Signal) string {
	if n := unix.SignalName(s); n != "" {
		return n
	}
	return fmt.Sprintf("signal %d", int(s))
}

// goSignalRe matches the Go runtime's report of a fatal signal, e.g.
// "SIGSEGV: segmentation violation" or "[signal SIGSEGV: segmentation ...".
var goSignalRe = regexp.MustCompile(`(?m)^\[?(?:signal )?(SIG[A-Z0-9]+): `)

// runtimeSignal recovers the signal of a Go program that died of a fatal
// signal in cgo code: the runtime prints it and exits with status 2.
func runtimeSignal(stderr string) string {
	if m := goSignalRe.FindStringSubmatch(stderr); m != nil {
		return m[1]
	}
	return ""
}

package jvmref

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fastpathlab/fplab/clusters/kafka"
)

// Run runs o with java and the jar, in its own process group that
// is killed when ctx ends, when the program overruns its timeout by
// killGrace, and in any case once it has exited (nothing it started
// outlives it). It returns the parsed result line, checked against
// o.Records; a non-zero exit is an error carrying the program's one
// "fplab: ..." stderr line (or its last stderr lines).
func Run(ctx context.Context, java, jar string, o Opts) (Result, error) {
	argv, tmp, err := prepare(jar, o)
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(ctx, o.Timeout+killGrace)
	defer cancel()
	cmd := jvmCommand(ctx, java, tmp, argv)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	what := "java " + string(o.Program)
	if err := exitError(what, err, ctx.Err() != nil, o.Timeout+killGrace, stderr.String()); err != nil {
		return Result{}, err
	}
	r, err := ParseResult(stdout.String())
	if err != nil {
		return Result{}, err
	}
	if r.Ckpt, err = ParseCkpt(stdout.String()); err != nil {
		return Result{}, err
	}
	if r.Start, err = ParseStart(stdout.String(), o.Partitions); err != nil {
		return Result{}, err
	}
	if (r.Start != nil) != (o.Start != "") {
		return Result{}, fmt.Errorf("%s: start %q but start line printed: %v", what, o.Start, r.Start != nil)
	}
	if (r.Ckpt != nil) != (o.Checkpoint > 0) {
		return Result{}, fmt.Errorf("%s: checkpoint interval %v but checkpoint statistics printed: %v", what, o.Checkpoint, r.Ckpt != nil)
	}
	if r.Program != o.Program {
		return Result{}, fmt.Errorf("%s printed the result of program %q", what, r.Program)
	}
	if r.Records != int64(o.Records) {
		return Result{}, fmt.Errorf("%s read %d records, corpus has %d", what, r.Records, o.Records)
	}
	if err := r.claims(o); err != nil {
		return Result{}, fmt.Errorf("%s: %w", what, err)
	}
	r.ran(cmd)
	return r, nil
}

// prepare checks the jar and renders o's command line, and makes the
// JVM's temporary directory, the caller's to remove.
func prepare(jar string, o Opts) (argv []string, tmp string, err error) {
	if err := kafka.CheckRefJar(jar); err != nil {
		return nil, "", err
	}
	if argv, err = Argv(jar, o); err != nil {
		return nil, "", err
	}
	if tmp, err = os.MkdirTemp("", "fplab-jvm-"); err != nil {
		return nil, "", err
	}
	return argv, tmp, nil
}

// exitError is how program what ended, as an error: nil when it exited
// cleanly, its overrun of limit when timedOut, else its exit with its
// failure line (failureLine of stderr).
func exitError(what string, err error, timedOut bool, limit time.Duration, stderr string) error {
	switch {
	case timedOut:
		return fmt.Errorf("%s did not finish within %v (killed): %s", what, limit, failureLine(stderr))
	case err == nil:
		return nil
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return fmt.Errorf("%s: %w: %s", what, err, failureLine(stderr))
	}
	return fmt.Errorf("%s: %w", what, err)
}

// ran sets what the Go side saw of the ended process: its command line
// (the temporary directory's flag included) and CPU. Not its ru_maxrss,
// which holds the rung's own resident set (see Mem): the JVM reports its
// memory itself.
func (r *Result) ran(cmd *exec.Cmd) {
	r.Argv = cmd.Args[1:]
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru != nil {
		r.CPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
}

// jvmCommand is the command running java with argv in a process group of
// its own, killed whole when ctx ends. The JVM's temporary files (Flink's
// MiniCluster unpacks a 21 MB RPC jar and makes blob and state directories
// per job) go to tmp, the caller's directory for this run, removed once it
// is over: left in /tmp they outlived the runs and filled the disk.
func jvmCommand(ctx context.Context, java, tmp string, argv []string) *exec.Cmd {
	argv = append([]string{"-Djava.io.tmpdir=" + tmp}, argv...)
	cmd := exec.CommandContext(ctx, java, argv...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	return cmd
}

// failureLine is the program's failure line ("fplab: <program>: ..."),
// the last one when there are several, else its last three non-empty
// stderr lines joined.
func failureLine(s string) string {
	var tail []string
	fail := ""
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if strings.HasPrefix(l, "fplab: ") {
			fail = l
		}
		tail = append(tail, l)
	}
	if fail != "" {
		return fail
	}
	if len(tail) == 0 {
		return "no output on stderr"
	}
	if len(tail) > 3 {
		tail = tail[len(tail)-3:]
	}
	return strings.Join(tail, " | ")
}

// claims checks that the program ran as o asked where its result says
// how it ran: Flink's parallelism (its conf entry parallelism, the
// partition count when o leaves it 0) and the warm-up, whole reads of the
// corpus (WarmupRuns) or a count of records (WarmupRecords).
func (r Result) claims(o Opts) error {
	if o.Program == Flink {
		want := o.Parallelism
		if want == 0 {
			want = o.Partitions
		}
		if !slices.Contains(r.Conf, "parallelism:"+strconv.Itoa(want)) {
			return fmt.Errorf("ran at parallelism %s, want %d", confValue(r.Conf, "parallelism"), want)
		}
	}
	if o.Program == Steady {
		// one pass over the topic at most; a poll may carry it past a
		// count below the topic's
		if want := int64(min(o.WarmupRecords, o.Records)); r.WarmupRecords < want {
			return fmt.Errorf("warmed up on %d records, want at least %d", r.WarmupRecords, want)
		}
		return nil
	}
	if want := int64(o.WarmupRuns) * int64(o.Records); r.WarmupRecords != want {
		return fmt.Errorf("warmed up on %d records in %d runs of %d, want %d", r.WarmupRecords, o.WarmupRuns, o.Records, want)
	}
	return nil
}

// confValue is key's value among conf's key:value entries, "none" when
// it has none.
func confValue(conf []string, key string) string {
	for _, c := range conf {
		if k, v, _ := strings.Cut(c, ":"); k == key {
			return v
		}
	}
	return "none"
}

package clusters_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/clusterstest"
	"github.com/fastpathlab/fplab/internal/proctest"
)

func TestEmbeddedBrokerCount(t *testing.T) {
	for _, brokers := range []int{1, 3} {
		t.Run(strconv.Itoa(brokers), func(t *testing.T) {
			e := clusterstest.StartSelfT(t, brokers, 6)
			if got := len(e.Bootstrap()); got != brokers {
				t.Fatalf("bootstrap %v has %d addresses, want %d", e.Bootstrap(), got, brokers)
			}
			ctx, cancel := context.WithTimeout(t.Context(), failSafe)
			defer cancel()
			n, err := clusters.BrokerCount(ctx, clusters.Cluster{Bootstrap: e.Bootstrap()})
			if err != nil {
				t.Fatal(err)
			}
			if n != brokers {
				t.Errorf("BrokerCount = %d, want %d", n, brokers)
			}
		})
	}
}

func TestStopLeavesNoProcess(t *testing.T) {
	e, err := clusters.StartEmbedded(context.Background(), clusterstest.SelfArgv(3, 6), clusterstest.StartTimeout)
	if err != nil {
		t.Fatal(err)
	}
	pid := e.Pid()
	if !proctest.Alive(pid) {
		t.Fatalf("broker %d not running after start", pid)
	}
	if err := e.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); !os.IsNotExist(err) {
		t.Errorf("/proc/%d still there after Stop (err %v)", pid, err)
	}
	if err := e.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
	// The cluster is gone too.
	ctx, cancel := context.WithTimeout(t.Context(), failSafe)
	defer cancel()
	if _, err := clusters.BrokerCount(ctx, clusters.Cluster{Bootstrap: e.Bootstrap()}); err == nil {
		t.Error("BrokerCount succeeded after Stop")
	}
}

func TestStartEmbeddedChildFails(t *testing.T) {
	_, err := clusters.StartEmbedded(context.Background(), clusterstest.SelfArgv(0, 6), clusterstest.StartTimeout)
	if err == nil {
		t.Fatal("StartEmbedded with --brokers 0 succeeded")
	}
	for _, want := range []string{"broker pid", "exited before printing its bootstrap line", "brokers must be 1..9, got 0"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error spans lines: %q", err)
	}
}

// TestStartEmbeddedTimeoutKillsGroup: a child that never prints its
// bootstrap line is killed with its whole process group when the start-up
// deadline passes. The deadline is injected and fired once the shell has
// started its grandchild, so the test holds on a loaded machine; the proof
// that both died is EOF on a fifo both hold open, not a look at /proc.
func TestStartEmbeddedTimeoutKillsGroup(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "held")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// fd 3 is the fifo's write end, inherited by sleep: it closes only when
	// the shell and its sleep are both dead.
	script := fmt.Sprintf("echo warming up >&2; exec 3>%s; sleep 60 & echo $$ $! >&3; wait", fifo)
	expire := make(chan time.Time, 1) // never blocks the test if StartEmbedded already returned
	errc := make(chan error, 1)
	go func() {
		_, err := clusters.StartEmbeddedExpiring(t.Context(), []string{"/bin/sh", "-c", script}, 500*time.Millisecond, expire)
		errc <- err
	}()
	// Opening the read end waits for the shell to open the write end.
	opened := make(chan *os.File, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			t.Error(err)
		}
		opened <- f
	}()
	f := await(t, opened, "the shell never opened the fifo")
	if f == nil {
		t.FailNow()
	}
	defer f.Close()
	r := bufio.NewReader(f)
	line, err := r.ReadString('\n')
	pids := strings.Fields(line)
	if err != nil || len(pids) != 2 {
		t.Fatalf("fifo line %q, %v; want the shell's and sleep's pids", line, err)
	}
	t.Cleanup(func() { killPid(pids[1]) }) // only if the group kill failed
	expire <- time.Now()
	err = await(t, errc, "StartEmbedded after its deadline")
	if err == nil {
		t.Fatal("StartEmbedded of a silent command succeeded")
	}
	for _, want := range []string{"did not print its bootstrap line within 500ms", "stderr: warming up"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	eof := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, r)
		eof <- err
	}()
	if err := await(t, eof, fmt.Sprintf("shell %s or its sleep %s still holds the fifo", pids[0], pids[1])); err != nil {
		t.Errorf("reading the fifo to EOF: %v", err)
	}
}

// killPid SIGKILLs a process the test may have left behind.
func killPid(s string) {
	if pid, err := strconv.Atoi(s); err == nil && pid > 0 {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

func TestStartEmbeddedEmptyArgv(t *testing.T) {
	if _, err := clusters.StartEmbedded(context.Background(), nil, time.Second); err == nil {
		t.Error("StartEmbedded(nil) succeeded")
	}
	if _, err := clusters.StartEmbedded(context.Background(), []string{"/nonexistent/fplab"}, time.Second); err == nil ||
		!strings.Contains(err.Error(), "start broker") {
		t.Errorf("StartEmbedded of a missing binary: %v", err)
	}
}

// TestBrokerStopsWhenStdinCloses is the dead-parent path: no signal, only
// the stdin pipe closing.
func TestBrokerStopsWhenStdinCloses(t *testing.T) {
	argv := clusterstest.SelfArgv(1, 2)
	cmd := exec.Command(argv[0], argv[1:]...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "bootstrap: 127.0.0.1:") {
		t.Fatalf("first line %q, %v", line, err)
	}
	go func() { done <- cmd.Wait() }()
	stdin.Close()
	if err := await(t, done, "broker exit after its stdin closed"); err != nil {
		t.Errorf("broker exit after stdin EOF: %v", err)
	}
}

// TestStopCleanOnUnhandledSIGTERM: a child that dies of Stop's SIGTERM has
// stopped cleanly.
func TestStopCleanOnUnhandledSIGTERM(t *testing.T) {
	e, err := clusters.StartEmbedded(context.Background(),
		[]string{"/bin/sh", "-c", "echo bootstrap: 127.0.0.1:9; exec sleep 60"}, failSafe)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Bootstrap(); len(got) != 1 || got[0] != "127.0.0.1:9" {
		t.Errorf("Bootstrap() = %v", got)
	}
	if err := e.Stop(); err != nil {
		t.Errorf("Stop: %v", err)
	}
	if proctest.Alive(e.Pid()) {
		t.Errorf("pid %d alive after Stop", e.Pid())
	}
}

// TestExitedReportsDeath: a broker that dies on its own closes Exited,
// and Stop then reports the death instead of calling it clean.
func TestExitedReportsDeath(t *testing.T) {
	e, err := clusters.StartEmbedded(t.Context(), clusterstest.SelfArgv(1, 2), clusterstest.StartTimeout)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Stop() })
	select {
	case <-e.Exited():
		t.Fatal("Exited closed while the broker runs")
	default:
	}
	if err := e.ExitErr(); err != nil {
		t.Errorf("ExitErr while running = %v, want nil", err)
	}
	if err := syscall.Kill(-e.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	await(t, e.Exited(), "Exited after SIGKILL")
	if err := e.ExitErr(); err == nil || !strings.Contains(err.Error(), "signal: killed") {
		t.Errorf("ExitErr = %v, want signal: killed", err)
	}
	if err := e.Stop(); err == nil || !strings.Contains(err.Error(), "signal: killed") {
		t.Errorf("Stop after an unasked death = %v, want the death reported", err)
	}
}

// TestKillThenStop: Kill is a death the caller asked for; Stop is clean.
func TestKillThenStop(t *testing.T) {
	e := clusterstest.StartSelfT(t, 1, 2)
	e.Kill()
	select {
	case <-e.Exited():
	default:
		t.Fatal("Exited still open after Kill returned")
	}
	if err := e.Stop(); err != nil {
		t.Errorf("Stop after Kill: %v", err)
	}
}

package clusters_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/clusterstest"
)

// alive reports whether pid is a live process (a zombie counts as dead).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// waitGone polls until pid is dead; a kill may take a moment to land.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for range 100 {
		if !alive(pid) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("process %d still alive", pid)
}

func TestEmbeddedBrokerCount(t *testing.T) {
	for _, brokers := range []int{1, 3} {
		t.Run(strconv.Itoa(brokers), func(t *testing.T) {
			e := clusterstest.StartSelfT(t, brokers, 6)
			if got := len(e.Bootstrap()); got != brokers {
				t.Fatalf("bootstrap %v has %d addresses, want %d", e.Bootstrap(), got, brokers)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
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
	if !alive(pid) {
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
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
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
	for _, want := range []string{"clusters: broker pid", "exited before printing its bootstrap line", "clusters: brokers must be 1..9, got 0"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error spans lines: %q", err)
	}
}

func TestStartEmbeddedTimeoutKillsGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pids")
	script := fmt.Sprintf("echo warming up >&2; sleep 60 & echo $$ $! > %s; wait", pidFile)
	_, err := clusters.StartEmbedded(context.Background(), []string{"/bin/sh", "-c", script}, 500*time.Millisecond)
	if err == nil {
		t.Fatal("StartEmbedded of a silent command succeeded")
	}
	for _, want := range []string{"did not print its bootstrap line within 500ms", "stderr: warming up"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	b, rerr := os.ReadFile(pidFile)
	if rerr != nil {
		t.Fatalf("the shell never wrote its pids: %v", rerr)
	}
	fields := strings.Fields(string(b))
	if len(fields) != 2 {
		t.Fatalf("pid file %q, want two pids", b)
	}
	for _, f := range fields {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatal(err)
		}
		waitGone(t, pid) // both the shell and its sleep, via the process group
	}
}

func TestStartEmbeddedEmptyArgv(t *testing.T) {
	if _, err := clusters.StartEmbedded(context.Background(), nil, time.Second); err == nil {
		t.Error("StartEmbedded(nil) succeeded")
	}
	if _, err := clusters.StartEmbedded(context.Background(), []string{"/nonexistent/fplab"}, time.Second); err == nil ||
		!strings.Contains(err.Error(), "clusters: start broker") {
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
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("broker exit after stdin EOF: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("broker still running 20s after its stdin closed")
	}
}

// TestStopCleanOnUnhandledSIGTERM: a child that dies of Stop's SIGTERM has
// stopped cleanly.
func TestStopCleanOnUnhandledSIGTERM(t *testing.T) {
	e, err := clusters.StartEmbedded(context.Background(),
		[]string{"/bin/sh", "-c", "echo bootstrap: 127.0.0.1:9; exec sleep 60"}, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Bootstrap(); len(got) != 1 || got[0] != "127.0.0.1:9" {
		t.Errorf("Bootstrap() = %v", got)
	}
	if err := e.Stop(); err != nil {
		t.Errorf("Stop: %v", err)
	}
	if alive(e.Pid()) {
		t.Errorf("pid %d alive after Stop", e.Pid())
	}
}

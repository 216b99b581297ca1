package ladder

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestParseCPUList(t *testing.T) {
	set, err := parseCPUList("0,2-3")
	if err != nil || set.Count() != 3 || !set.IsSet(0) || set.IsSet(1) || !set.IsSet(3) {
		t.Errorf("0,2-3: %v %v", set, err)
	}
	for _, bad := range []string{"", "a", "3-1", "-1", "1,"} {
		if _, err := parseCPUList(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestPinnedChildSeesItsCPUs runs a child pinned to CPU 0 and checks the
// affinity it reports from /proc/self/status, through the run path (taskset
// here when installed) and through the sched_setaffinity fallback.
func TestPinnedChildSeesItsCPUs(t *testing.T) {
	var all unix.CPUSet
	if err := unix.SchedGetaffinity(0, &all); err != nil || !all.IsSet(0) {
		t.Skip("CPU 0 not available to this process")
	}
	exe, _ := os.Executable()
	res := runChild(context.Background(), childCmd{
		Bin: exe, Args: []string{"rung", "--path", "fast", "--records", "1"}, Timeout: 30 * time.Second,
		Env: fakeEnv(""), CPUs: "0",
	})
	if !strings.Contains(string(res.Stdout), "cpus: 0\n") {
		t.Errorf("pinned child reported:\n%s\nstderr: %s", res.Stdout, res.StderrTail)
	}

	var out bytes.Buffer
	cmd := exec.Command("grep", "Cpus_allowed_list", "/proc/self/status")
	cmd.Stdout = &out
	if err := onPinnedThread("0", cmd.Start); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if f := strings.Fields(out.String()); len(f) != 2 || f[1] != "0" {
		t.Errorf("fallback-pinned child: %q", out.String())
	}
	// The calling thread's affinity is untouched.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var now unix.CPUSet
	if err := unix.SchedGetaffinity(0, &now); err != nil || now != all {
		t.Errorf("affinity changed: %v", now)
	}
}

func TestPinningRecordedInManifest(t *testing.T) {
	p := pinningOf(Options{CellCPUs: "1", BrokerCPUs: "0"})
	if !p.On || p.Method == "" || p.CellCPUs != "1" || p.BrokerCPUs != "0" {
		t.Errorf("%+v", p)
	}
	if p := pinningOf(Options{}); p.On {
		t.Errorf("%+v", p)
	}
}

package ladder

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
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

func TestCPUsWithin(t *testing.T) {
	var allowed unix.CPUSet
	allowed.Set(0)
	allowed.Set(1)
	allowed.Set(4)
	if got := formatCPUList(allowed); got != "0-1,4" {
		t.Errorf("formatCPUList = %q, want 0-1,4", got)
	}
	for list, want := range map[string]string{
		"0":    "",
		"0-1":  "",
		"1,4":  "",
		"1-3":  `--cell-cpus "1-3" names CPU 2, which this host does not let the ladder use (it may use 0-1,4)`,
		"5000": `CPU list "5000" names CPU 5000, past the 1024 a CPU set holds`,
		"0-x":  `bad CPU list "0-x" (want e.g. 0 or 1-3 or 0,2)`,
	} {
		err := cpusWithin("--cell-cpus", list, allowed)
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", list, err)
		case want != "" && (err == nil || err.Error() != want):
			t.Errorf("%q: %v, want %q", list, err, want)
		}
	}
}

// TestRunRefusesCPUsPastTheHost: a CPU list naming a CPU the ladder may
// not use is refused before the run directory exists (it used to journal
// every cell as failed: taskset: Invalid argument).
func TestRunRefusesCPUsPastTheHost(t *testing.T) {
	allowed, err := allowedCPUs()
	if err != nil {
		t.Fatal(err)
	}
	past := -1
	for c := range maxCPUs {
		if !allowed.IsSet(c) {
			past = c
			break
		}
	}
	if past < 0 {
		t.Skip("this process may use every CPU a set holds")
	}
	root := t.TempDir()
	infra := &fakeInfra{}
	_, err = Run(context.Background(), Options{Spec: mustSpec(t, runnerSpec), BinDir: fakeBinDir(t, "go", "mimalloc2"), Root: root, Infra: infra, CellCPUs: strconv.Itoa(past)})
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("names CPU %d, which this host does not let the ladder use", past)) {
		t.Errorf("CellCPUs %d: %v", past, err)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 || len(infra.started) != 0 {
		t.Errorf("a refused run left %v, started %v", ents, infra.started)
	}
}

package ladder

import (
	"fmt"
	"os/exec"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Pinning keeps the broker and the measured child on separate CPUs. It uses
// taskset(1) when present; otherwise the process is forked from an OS thread
// whose affinity was set with sched_setaffinity, and inherits it from birth.

// pinMethod reports how pinning will be done on this host.
func pinMethod() string {
	if _, err := exec.LookPath("taskset"); err == nil {
		return "taskset"
	}
	return "sched_setaffinity"
}

// pinArgv wraps bin+args in taskset when it is available; otherwise it
// returns them unchanged and startPinned does the work.
func pinArgv(cpus, bin string, args []string) (string, []string) {
	ts, err := exec.LookPath("taskset")
	if err != nil {
		return bin, args
	}
	return ts, append([]string{"-c", cpus, bin}, args...)
}

// startPinned starts cmd; when pinning was not done by taskset it starts it
// from a thread pinned to cpus.
func startPinned(cmd *exec.Cmd, cpus string) error {
	if cpus == "" || pinMethod() == "taskset" {
		return cmd.Start()
	}
	return onPinnedThread(cpus, cmd.Start)
}

// onPinnedThread runs start (which must fork synchronously) on an OS thread
// pinned to cpus, in a goroutine of its own, then restores the thread's
// affinity; a thread whose affinity cannot be restored stays locked and
// exits with that goroutine.
func onPinnedThread(cpus string, start func() error) error {
	set, err := parseCPUList(cpus)
	if err != nil {
		return err
	}
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		var old unix.CPUSet
		if err := unix.SchedGetaffinity(0, &old); err != nil {
			runtime.UnlockOSThread()
			errc <- fmt.Errorf("sched_getaffinity: %w", err)
			return
		}
		if err := unix.SchedSetaffinity(0, &set); err != nil {
			runtime.UnlockOSThread()
			errc <- fmt.Errorf("sched_setaffinity %s: %w", cpus, err)
			return
		}
		serr := start()
		if unix.SchedSetaffinity(0, &old) == nil {
			runtime.UnlockOSThread()
		}
		errc <- serr
	}()
	return <-errc
}

// parseCPUList parses a Linux CPU list such as "0", "1-3" or "0,2-3".
func parseCPUList(s string) (unix.CPUSet, error) {
	var set unix.CPUSet
	bad := fmt.Errorf("bad CPU list %q (want e.g. 0 or 1-3 or 0,2)", s)
	if strings.TrimSpace(s) == "" {
		return set, bad
	}
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return set, bad
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return set, bad
			}
		}
		if b >= maxCPUs {
			return set, fmt.Errorf("CPU list %q names CPU %d, past the %d a CPU set holds", s, b, maxCPUs)
		}
		for c := a; c <= b; c++ {
			set.Set(c)
		}
	}
	return set, nil
}

// maxCPUs is how many CPUs a unix.CPUSet holds (1024); Set ignores the rest,
// so a list naming more is refused rather than silently cut.
const maxCPUs = 1024

// cpusWithin checks that every CPU of list is one allowed holds: a CPU the
// host does not have, or does not let the ladder use, would fail every
// cell at its start (taskset: Invalid argument) long after the run began.
// name is the option's name for the error.
func cpusWithin(name, list string, allowed unix.CPUSet) error {
	set, err := parseCPUList(list)
	if err != nil {
		return err
	}
	for c := range maxCPUs {
		if set.IsSet(c) && !allowed.IsSet(c) {
			return fmt.Errorf("%s %q names CPU %d, which this host does not let the ladder use (it may use %s)", name, list, c, formatCPUList(allowed))
		}
	}
	return nil
}

// formatCPUList writes a set as a Linux CPU list ("0-3,6").
func formatCPUList(set unix.CPUSet) string {
	var parts []string
	for c := 0; c < maxCPUs; c++ {
		if !set.IsSet(c) {
			continue
		}
		hi := c
		for hi+1 < maxCPUs && set.IsSet(hi+1) {
			hi++
		}
		if hi == c {
			parts = append(parts, strconv.Itoa(c))
		} else {
			parts = append(parts, strconv.Itoa(c)+"-"+strconv.Itoa(hi))
		}
		c = hi
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ",")
}

// allowedCPUs is the set of CPUs this process may run on.
func allowedCPUs() (unix.CPUSet, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return set, fmt.Errorf("sched_getaffinity: %w", err)
	}
	return set, nil
}

package checkpointcost

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fastpathlab/fplab/internal/atomicfile"
)

// childFlag makes the test binary a reader process (see TestMain), so the
// supervisor's SIGKILL kills a real process.
const childFlag = "-checkpointcost.reader"

// childConfig is a reader process's configuration, passed as one JSON
// argument after childFlag.
type childConfig struct {
	Store, Output string
	Start, Stop   []int64
	Batch         int
	// Interval is the clock-driven checkpoint interval, used when
	// EveryBatches is 0.
	Interval time.Duration
	// EveryBatches > 0 triggers a checkpoint every that many batches
	// instead of on the clock, each completed before reading goes on.
	EveryBatches int
	// FailStore lists checkpoint ids whose state write fails.
	FailStore []int
	// CrashAfterComplete > 0: the reader SIGKILLs itself once checkpoint
	// CrashAfterComplete is durable, before its transactions are committed.
	CrashAfterComplete int
	// Subtasks is reported as ReaderOptions.Subtasks.
	Subtasks int
}

func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == childFlag {
		if err := childMain(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func childArgv(c childConfig) []string {
	js, err := json.Marshal(c)
	if err != nil {
		panic(err) // a test bug: childConfig always encodes
	}
	return []string{os.Args[0], childFlag, string(js)}
}

func childMain(arg string) error {
	var c childConfig
	if err := json.Unmarshal([]byte(arg), &c); err != nil {
		return fmt.Errorf("child: %v", err)
	}
	restored, err := Restore(c.Store, c.Output, c.Start)
	if err != nil {
		return err
	}
	plan, err := ReadPlan(os.Stdin)
	if err != nil {
		return err
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	r := newFakeReader(mem, restored.Start, c.Stop, c.Batch)
	opt := ReaderOptions{Store: c.Store, Output: c.Output, Interval: c.Interval, Restored: restored, Plan: plan, Subtasks: c.Subtasks}
	if c.EveryBatches > 0 {
		opt.trigger, opt.awaitSnapshot = &batchTrigger{every: int64(c.EveryBatches)}, true
	}
	if len(c.FailStore) > 0 {
		opt.fs = &failingFS{store: c.Store, fail: func(id int) bool { return slices.Contains(c.FailStore, id) }}
	}
	if c.CrashAfterComplete > 0 {
		opt.afterComplete = func(id int) {
			if id == c.CrashAfterComplete {
				_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {} // SIGKILL cannot be caught; never reached
			}
		}
	}
	// At a planned failure RunReader blocks until the supervisor's SIGKILL.
	err = RunReader(context.Background(), r, opt, os.Stdout)
	r.Close()
	if n := mem.CurrentAlloc(); err == nil && n != 0 {
		return fmt.Errorf("child: %d Arrow bytes not released", n)
	}
	return err
}

// failingFS is the OS file system except that creating the temporary file
// of a checkpoint whose id fail selects returns an error, as a full disk
// or a read-only store would.
type failingFS struct {
	osFS
	store string
	fail  func(id int) bool
}

func (f *failingFS) Create(name string) (file, error) {
	if rest, ok := strings.CutPrefix(name, f.store+string(os.PathSeparator)); ok {
		if id, ok := ckptID(tmpTarget(rest)); ok && f.fail(id) {
			return nil, &os.PathError{Op: "open", Path: name, Err: syscall.ENOSPC}
		}
	}
	return f.osFS.Create(name)
}

// tmpTarget is the file a temporary file of atomicfile's was to replace
// (name itself for any other name).
func tmpTarget(name string) string {
	if t, ok := atomicfile.Target(name); ok {
		return t
	}
	return name
}

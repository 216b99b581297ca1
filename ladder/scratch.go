package ladder

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// Nothing a ladder leaves behind trips the next run or fills the disk over
// days. Where each temporary thing lives and who removes it:
//
//   - a ladder's scratch directory, $TMPDIR/fplab-ladder-<pid>-*, holds
//     every child's TMPDIR (a checkpointing cell's store and sink, the JVM
//     references' files) and the fault sockets of broker_kill cells. The
//     ladder flocks scratchLock inside it for its whole life and removes it
//     at its end; a ladder that died (SIGKILL included: the kernel drops a
//     flock with its process) leaves it to the next ladder, which removes
//     every scratch directory whose lock it can take (sweepScratch).
//   - each child's TMPDIR is removed once its process group is gone;
//   - the data of real Kafka nodes (<run>/kafka/brokers=N/node-*/data) is
//     removed when the shape stops and, after a ladder that died, when the
//     run is resumed (removeStaleNodeData); configs and broker logs stay.
//   - a refused spec leaves nothing: every check runs before the run
//     directory and the scratch directory are made.

// scratchPrefix names every ladder's scratch directory under TMPDIR.
const scratchPrefix = "fplab-ladder-"

// scratchLock is the file in a scratch directory its ladder flocks.
const scratchLock = "lock"

// scratch is this ladder's scratch directory, locked while it lives.
type scratch struct {
	dir  string
	lock *os.File
}

// newScratch makes and locks a scratch directory under tmp.
func newScratch(tmp string) (*scratch, error) {
	dir, err := os.MkdirTemp(tmp, scratchPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return nil, fmt.Errorf("scratch directory: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, scratchLock), os.O_RDWR|os.O_CREATE, 0o600)
	if err == nil {
		if err = flock(f, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
		}
	}
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("scratch directory: %w", err)
	}
	return &scratch{dir: dir, lock: f}, nil
}

// remove removes the scratch directory, then drops its lock.
func (s *scratch) remove() {
	if s == nil {
		return
	}
	_ = os.RemoveAll(s.dir)
	_ = s.lock.Close()
}

// sweepScratch removes every scratch directory under tmp whose ladder is
// gone (its lock can be taken), and returns them. A directory whose lock
// file cannot be opened is left alone: it may be another user's.
func sweepScratch(tmp string) []string {
	dirs, _ := filepath.Glob(filepath.Join(tmp, scratchPrefix+"*"))
	var removed []string
	for _, d := range dirs {
		f, err := os.OpenFile(filepath.Join(d, scratchLock), os.O_RDWR, 0)
		if err != nil {
			// No lock file yet (a ladder between making and locking its
			// directory) or not ours to open: left alone.
			continue
		}
		if flock(f, syscall.LOCK_EX|syscall.LOCK_NB) != nil {
			f.Close() // its ladder lives
			continue
		}
		if os.RemoveAll(d) == nil {
			removed = append(removed, d)
		}
		f.Close()
	}
	return removed
}

package ladder

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// LockFile is the file in a run directory whose flock(2) marks the ladder
// that owns the directory; it holds the owner's pid. The lock, not the
// file, is what counts: the kernel drops it when the owner's process ends,
// however it ends, so a crashed ladder never blocks a later --resume and a
// leftover file means nothing.
const LockFile = "ladder.lock"

// runLock is a held lock on a run directory.
type runLock struct {
	f *os.File
}

// lockRunDir takes the run directory for this session, or fails at once
// (LOCK_NB) with ErrLocked naming the directory and the holder's pid: two
// ladders appending to one journal would corrupt it.
func lockRunDir(dir string) (*runLock, error) {
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock run directory: %w", err)
	}
	if err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder := "unknown pid"
		if data, rerr := os.ReadFile(path); rerr == nil {
			if pid := strings.TrimSpace(string(data)); pid != "" {
				holder = "pid " + pid
			}
		}
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s is held by another ladder (%s); wait for it or stop it", ErrLocked, dir, holder)
		}
		return nil, fmt.Errorf("lock run directory %s: %w", dir, err)
	}
	// The pid is only for the message of a refused ladder: failing to
	// write it does not weaken the lock, so its errors are dropped.
	if f.Truncate(0) == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &runLock{f: f}, nil
}

// release drops the lock. The file stays; it is empty, so a leftover is
// visibly nobody's.
func (l *runLock) release() {
	if l == nil || l.f == nil {
		return
	}
	_ = l.f.Truncate(0)
	_ = flock(l.f, syscall.LOCK_UN)
	_ = l.f.Close()
	l.f = nil
}

// flock retries flock(2) on EINTR.
func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

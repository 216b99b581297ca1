// Package atomicfile is the lab's one way to replace a file on disk: a
// reader sees the old file or the whole new one, never part of it, and the
// new one survives a crash once Write returns. The rule: write a temporary
// file of a unique name beside the target, fsync it, rename it over the
// target, fsync the directory. A concurrent or killed writer leaves at
// worst a temporary file, which no reader opens.
//
// Everything goes through an FS, so a test can make a write fail (a full
// disk, a read-only store) even as root; OS is the real file system.
package atomicfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
)

// FS is what Write needs of a file system.
type FS interface {
	MkdirAll(dir string) error
	// Create opens name for writing, truncating it.
	Create(name string) (File, error)
	Rename(oldname, newname string) error
	Remove(name string) error
	// SyncDir makes a directory's entries (creates, renames) durable.
	SyncDir(dir string) error
}

// File is what Write needs of an open file.
type File interface {
	io.Writer
	Sync() error
	Close() error
}

// OS is the operating system's file system.
type OS struct{}

func (OS) MkdirAll(dir string) error            { return os.MkdirAll(dir, 0o755) }
func (OS) Create(name string) (File, error)     { return os.Create(name) }
func (OS) Rename(oldname, newname string) error { return os.Rename(oldname, newname) }
func (OS) Remove(name string) error             { return os.Remove(name) }

// SyncDir fsyncs the directory dir.
func (OS) SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// tempSuffix ends every temporary file's name.
const tempSuffix = ".tmp"

var seq atomic.Uint64

// tempName is a name beside target that no other writer, in this process
// or another, uses at the same time.
func tempName(target string) string {
	return target + "." + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(seq.Add(1), 10) + tempSuffix
}

// Target reports whether name is a temporary file of Write's and, if so,
// the file it was to replace.
func Target(name string) (string, bool) {
	rest, ok := strings.CutSuffix(name, tempSuffix)
	if !ok {
		return "", false
	}
	i := strings.LastIndexByte(rest, '.')
	if i < 0 {
		return "", false
	}
	pid, n, ok := strings.Cut(rest[i+1:], "-")
	if !ok || !digits(pid) || !digits(n) {
		return "", false
	}
	return rest[:i], true
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Write replaces name with data on the operating system's file system.
// name's directory must exist: a run directory that vanished is an error,
// not something to create again.
func Write(name string, data []byte) error { return WriteFS(OS{}, name, data) }

// WriteFS replaces name with data through fsys. The error says which step
// failed; on any failure the temporary file is removed (best effort) and
// name is as it was.
func WriteFS(fsys FS, name string, data []byte) error {
	dir := filepath.Dir(name)
	tmp := tempName(name)
	f, err := fsys.Create(tmp)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = fsys.Rename(tmp, name)
	}
	if err != nil {
		_ = fsys.Remove(tmp) // best effort: a leftover temporary file is never read
		return err
	}
	if err := fsys.SyncDir(dir); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

package checkpointcost

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// fileSystem is the seam every write of the store and the sink goes
// through, so tests can make a store unwritable even when they run as root
// (where a read-only mode bit does not stop writes).
type fileSystem interface {
	MkdirAll(dir string) error
	// Create opens name for writing, truncating it.
	Create(name string) (file, error)
	Rename(oldname, newname string) error
	Remove(name string) error
	// SyncDir makes a directory's entries (creates, renames) durable.
	SyncDir(dir string) error
}

type file interface {
	io.Writer
	Sync() error
	Close() error
}

type osFS struct{}

func (osFS) MkdirAll(dir string) error            { return os.MkdirAll(dir, 0o755) }
func (osFS) Create(name string) (file, error)     { return os.Create(name) }
func (osFS) Rename(oldname, newname string) error { return os.Rename(oldname, newname) }
func (osFS) Remove(name string) error             { return os.Remove(name) }

func (osFS) SyncDir(dir string) error {
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

// writeDurable replaces name with data so that a reader sees either the old
// file or the whole new one, and the new one survives a crash once it
// returns: write a temporary file, fsync it, rename it over name, fsync the
// directory.
func writeDurable(fsys fileSystem, name string, data []byte) error {
	dir := filepath.Dir(name)
	if err := fsys.MkdirAll(dir); err != nil {
		return err
	}
	tmp := name + ".tmp"
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
		_ = fsys.Remove(tmp) // best effort: a leftover .tmp is never read
		return err
	}
	if err := fsys.SyncDir(dir); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

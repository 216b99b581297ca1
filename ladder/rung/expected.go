package rung

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/fastpathlab/fplab/workloads"
)

// The expected row hash of every corpus record lives in a file, never
// whole in memory: 8 bytes little-endian per record, in corpus order
// (hashFile), which the verifier reads in windows per partition
// (window.go). A cell's memory then does not grow with its topic: at 16M
// records the slice it replaced held 128 MB, and making it held 384 MB
// at its peak, all counted in the path's peak RSS.

// hashChunk is how many records' hashes hashFile computes and writes at a
// time: 8 bytes each, 512 KiB.
const hashChunk = 1 << 16

// hashFile returns the path of the file of c's expected row hashes, made
// if missing or of the wrong size: in dir, the ladder's hash cache, so
// only a corpus's first cell pays (about as much as generating the
// corpus), or without one in a temporary directory that cleanup removes.
// It is written chunk by chunk to a temporary name and renamed into place,
// so its making holds O(hashChunk) memory and a killed or concurrent
// writer never leaves a torn file a later cell would trust.
func hashFile(c *workloads.Corpus, dir string) (path string, cleanup func(), err error) {
	cleanup = func() {}
	if dir == "" {
		if dir, err = os.MkdirTemp("", "fplab-hashes-"); err != nil {
			return "", cleanup, fmt.Errorf("hash cache: %w", err)
		}
		tmp := dir
		cleanup = func() { os.RemoveAll(tmp) }
	}
	path = filepath.Join(dir, fmt.Sprintf("%s.h%d.hashes", c.ID(), workloads.HashVersion))
	if fi, err := os.Stat(path); err == nil && fi.Size() == 8*int64(c.Count()) {
		return path, cleanup, nil
	}
	if err := writeHashFile(c, path); err != nil {
		cleanup()
		return "", func() {}, fmt.Errorf("hash cache: %w", err)
	}
	return path, cleanup, nil
}

// writeHashFile computes c's hashes in chunks, each with every CPU, and
// writes them to path by way of a temporary file in its directory.
func writeHashFile(c *workloads.Corpus, path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after the rename, nothing is left to remove
	workers := runtime.GOMAXPROCS(0)
	n := c.Count()
	h := make([]uint64, hashChunk)
	b := make([]byte, 8*hashChunk)
	for from := 0; from < n; from += hashChunk {
		k := min(hashChunk, n-from)
		hashRange(c, h[:k], from, workers)
		for i, v := range h[:k] {
			binary.LittleEndian.PutUint64(b[8*i:], v)
		}
		if _, err := f.Write(b[:8*k]); err != nil {
			f.Close()
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// hashRange sets out[i] to the hash of record from+i, split over workers
// goroutines.
func hashRange(c *workloads.Corpus, out []uint64, from, workers int) {
	per := (len(out) + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := 0; lo < len(out); lo += per {
		hi := min(lo+per, len(out))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				out[i] = c.Hash(from + i)
			}
		}()
	}
	wg.Wait()
}

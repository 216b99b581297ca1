package rung

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/fastpathlab/fplab/internal/atomicfile"
	"github.com/fastpathlab/fplab/workloads"
)

// expectedHashes returns, for every corpus record, the row hash its decoded
// columns must have. Computing them costs about as much as generating the
// corpus, so a ladder passes a cache directory and only its first cell per
// corpus pays.
func expectedHashes(c *workloads.Corpus, cacheDir string) ([]uint64, error) {
	n := c.Count()
	var path string
	if cacheDir != "" {
		path = filepath.Join(cacheDir, fmt.Sprintf("%s.h%d.hashes", c.ID(), workloads.HashVersion))
		if b, err := os.ReadFile(path); err == nil && len(b) == 8*n {
			out := make([]uint64, n)
			for i := range out {
				out[i] = binary.LittleEndian.Uint64(b[8*i:])
			}
			return out, nil
		}
	}
	h := c.Hashes(runtime.GOMAXPROCS(0))
	out := make([]uint64, n)
	for i := range out {
		out[i] = h.Hash(i)
	}
	if path != "" {
		if err := writeHashes(path, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// writeHashes writes the cache atomically, so a concurrent or killed writer
// never leaves a torn file that a later cell would trust.
func writeHashes(path string, h []uint64) error {
	b := make([]byte, 8*len(h))
	for i, v := range h {
		binary.LittleEndian.PutUint64(b[8*i:], v)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("hash cache: %w", err)
	}
	if err := atomicfile.Write(path, b); err != nil {
		return fmt.Errorf("hash cache: %w", err)
	}
	return nil
}

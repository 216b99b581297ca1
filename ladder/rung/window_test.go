package rung

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/workloads"
)

// testHashes makes the hash file of a json corpus of n records in a
// temporary cache directory and opens it.
func testHashes(t *testing.T, n int, opts ...workloads.CorpusOpt) (*workloads.Corpus, *os.File, string) {
	t.Helper()
	s, _ := workloads.SchemaByName("bid")
	codec, err := workloads.NewCodec(workloads.FormatJSON, s)
	if err != nil {
		t.Fatal(err)
	}
	c := workloads.NewCorpus(s, codec, 9, n, opts...)
	path, cleanup, err := hashFile(c, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cleanup()
	f, err := openHashes(path, c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return c, f, path
}

// TestHashFile: the file holds every record's hash in corpus order, written
// in more than one chunk; a second call keeps it, a file of the wrong size
// is made again, and no temporary file is left beside it.
func TestHashFile(t *testing.T) {
	n := hashChunk + 1000
	c, _, path := testHashes(t, n)
	b, err := os.ReadFile(path)
	if err != nil || len(b) != 8*n {
		t.Fatalf("%d bytes, %v; want %d", len(b), err, 8*n)
	}
	for _, i := range []int{0, 1, hashChunk - 1, hashChunk, n - 1} {
		if got, want := binary.LittleEndian.Uint64(b[8*i:]), c.Hash(i); got != want {
			t.Errorf("record %d: %016x, want %016x", i, got, want)
		}
	}
	dir := filepath.Dir(path)
	if err := os.WriteFile(path, b[:80], 0o644); err != nil {
		t.Fatal(err)
	}
	again, _, err := hashFile(c, dir)
	if err != nil || again != path {
		t.Fatalf("%s, %v", again, err)
	}
	if b2, _ := os.ReadFile(path); !bytes.Equal(b2, b) {
		t.Errorf("a torn file was kept (%d bytes)", len(b2))
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("cache holds %d files, want the hash file only", len(entries))
	}
	s, _ := workloads.SchemaByName("bid")
	if _, err := openHashes(path, workloads.NewCorpus(s, c.Codec(), 9, n+1)); err == nil || !strings.Contains(err.Error(), "need") {
		t.Errorf("a file of another corpus size opened: %v", err)
	}
}

// TestHashFileOwnDirectory: without a cache directory the file is made in
// a temporary one, which cleanup removes.
func TestHashFileOwnDirectory(t *testing.T) {
	s, _ := workloads.SchemaByName("bid")
	codec, _ := workloads.NewCodec(workloads.FormatRaw, s)
	path, cleanup, err := hashFile(workloads.NewCorpus(s, codec, 1, 100), "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	cleanup()
	if _, err := os.Stat(filepath.Dir(path)); !os.IsNotExist(err) {
		t.Errorf("the temporary directory is still there: %v", err)
	}
}

// TestHashWindowsAgreeWithTheCorpus reads every record of every layout
// shape through windows small enough to be refilled many times, the
// partitions interleaved as a reader's batches are, and compares each hash
// with the corpus's own (a tombstone's: its NullHash); what the windows
// hold stays within their bound.
func TestHashWindowsAgreeWithTheCorpus(t *testing.T) {
	const n, parts = 20000, 3
	for _, sh := range []workloads.Shape{{}, {Nulls: 0.05}, {Txn: true}, {Uneven: true}, {Empty: 1}} {
		c, f, _ := testHashes(t, n)
		l, err := workloads.NewLayout(9, n, parts, sh)
		if err != nil {
			t.Fatal(err)
		}
		w := newWindows(f, c, l)
		size := w.size
		w.size = 100 // many refills
		next := make([]int64, parts)
		for done := 0; done < parts; {
			done = 0
			for p := range parts {
				// a run of 37 offsets of partition p, as a fetch would bring
				for k := 0; k < 37 && next[p] < l.End(p); k++ {
					off := next[p]
					next[p]++
					id, ok := l.At(int32(p), off)
					if !ok {
						continue
					}
					got, err := w.at(int32(p), off, id)
					if err != nil {
						t.Fatalf("%+v: partition %d offset %d: %v", sh, p, off, err)
					}
					want := c.Hash(id)
					if sh.Nulls > 0 && l.Null(id) {
						want = c.NullHash(id)
					}
					if got != want || w.direct(id) != want {
						t.Fatalf("%+v: partition %d offset %d (record %d): %016x, direct %016x, want %016x", sh, p, off, id, got, w.direct(id), want)
					}
				}
				if next[p] >= l.End(p) {
					done++
				}
			}
		}
		held := len(w.cur) / 8
		for _, h := range w.hashes {
			held += cap(h)
		}
		if bound := parts*size + cursorEntries; held > bound {
			t.Errorf("%+v: windows hold %d hashes, bound %d", sh, held, bound)
		}
		if _, err := w.at(0, l.End(0), 0); err == nil {
			t.Errorf("%+v: an offset past the partition's end got a hash", sh)
		}
	}
}

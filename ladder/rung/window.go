package rung

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/fastpathlab/fplab/workloads"
)

// hashWindows is where a verifier gets the row hash a record's decoded
// columns must have (a tombstone's: the corpus's NullHash): the hash file
// (hashFile) read in a window of offsets per partition, so what it holds
// is bounded by the partition count, not the record count. A partition's
// window covers offsets [base, base+len) and is refilled from the first
// offset asked past it; the file is read through a cursor over corpus
// indexes, which rise with the offsets of a partition, so a refill reads
// the file forward. Its memory: windowEntries hashes in all (at least
// minWindow per partition) plus the cursor's cursorEntries. at and fill
// are for one goroutine, the verifier's positions; direct is for any.
type hashWindows struct {
	f      *os.File
	count  int // corpus records: the file's length / 8
	layout *workloads.Layout
	corpus *workloads.Corpus
	nulls  bool
	size   int        // offsets per window
	base   []int64    // per partition, the window's first offset
	hashes [][]uint64 // per partition, the window's hashes by offset-base

	cur   []byte // the cursor: the file's bytes of records [curLo, curLo+len/8)
	curLo int
}

const (
	// windowEntries bounds the hashes all windows hold: 8 MiB.
	windowEntries = 1 << 20
	// minWindow is a window's least size, however many partitions.
	minWindow = 1 << 10
	// maxWindow is a window's largest size (512 KiB).
	maxWindow = 1 << 16
	// cursorEntries is how many hashes one file read brings (512 KiB).
	cursorEntries = 1 << 16
)

// openHashes opens the hash file at path (hashFile) for corpus, checking
// its size; every verifier of the cell reads it (ReadAt, safe on any
// goroutine) through windows of its own (newWindows).
func openHashes(path string, corpus *workloads.Corpus) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("hash cache: %w", err)
	}
	fi, err := f.Stat()
	if err == nil && fi.Size() != 8*int64(corpus.Count()) {
		err = fmt.Errorf("%s holds %d bytes, the corpus's %d records need %d", path, fi.Size(), corpus.Count(), 8*corpus.Count())
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("hash cache: %w", err)
	}
	return f, nil
}

// newWindows reads f, corpus's hash file, for a read of the topic placed
// by layout. Its windows and cursor are allocated and written now, before
// any read, so that they are resident when the harness's memory is taken
// (markHarness) and the path's peak does not count them.
func newWindows(f *os.File, corpus *workloads.Corpus, layout *workloads.Layout) *hashWindows {
	parts := layout.Partitions()
	w := &hashWindows{f: f, count: corpus.Count(), layout: layout, corpus: corpus, nulls: layout.Shape().Nulls > 0,
		size: min(max(windowEntries/parts, minWindow), maxWindow), base: make([]int64, parts), hashes: make([][]uint64, parts)}
	for p := range w.hashes {
		h := make([]uint64, w.size)
		clear(h) // touch the pages
		w.hashes[p] = h[:0]
	}
	w.cur = make([]byte, 8*cursorEntries)
	clear(w.cur)
	w.cur = w.cur[:0]
	return w
}

// at is the hash of record id, at partition p offset off of the layout;
// calls for one partition come in rising offset order (the verifier
// checks that order first), so a miss refills the window forward.
func (w *hashWindows) at(p int32, off int64, id int) (uint64, error) {
	if k := off - w.base[p]; k >= 0 && k < int64(len(w.hashes[p])) {
		return w.hashes[p][k], nil
	}
	if err := w.fill(int(p), off); err != nil {
		return 0, err
	}
	return w.hashes[p][0], nil
}

// fill makes partition p's window start at off: the hash of every
// record at offsets [off, off+size) up to the partition's end, 0 at a
// control record's offset (never asked for: the verifier fails such a
// row before it asks).
func (w *hashWindows) fill(p int, off int64) error {
	n := min(int64(w.size), w.layout.End(p)-off)
	if n <= 0 {
		return fmt.Errorf("hash window: partition %d offset %d is past the layout's end %d", p, off, w.layout.End(p))
	}
	h := w.hashes[p]
	if cap(h) < int(n) {
		h = make([]uint64, w.size)
	}
	h = h[:n]
	for k := range h {
		id, ok := w.layout.At(int32(p), off+int64(k))
		if !ok {
			h[k] = 0
			continue
		}
		v, err := w.read(id)
		if err != nil {
			return err
		}
		if w.nulls && w.layout.Null(id) {
			v = w.corpus.NullHash(id)
		}
		h[k] = v
	}
	w.base[p], w.hashes[p] = off, h
	return nil
}

// read is record id's hash from the file, through the cursor.
func (w *hashWindows) read(id int) (uint64, error) {
	if id < 0 || id >= w.count {
		return 0, fmt.Errorf("hash window: record %d is outside the corpus of %d", id, w.count)
	}
	if k := id - w.curLo; k < 0 || 8*k >= len(w.cur) {
		b := w.cur[:cap(w.cur)][:8*min(cursorEntries, w.count-id)]
		if _, err := w.f.ReadAt(b, 8*int64(id)); err != nil && err != io.EOF {
			return 0, fmt.Errorf("hash cache: %w", err)
		}
		w.cur, w.curLo = b, id
	}
	return binary.LittleEndian.Uint64(w.cur[8*(id-w.curLo):]), nil
}

// direct is the hash of record id, computed from the corpus: slow, for
// the rare caller (a mismatch's explanation, an added partition's
// records), and safe on any goroutine.
func (w *hashWindows) direct(id int) uint64 {
	if w.nulls && w.layout.Null(id) {
		return w.corpus.NullHash(id)
	}
	return w.corpus.Hash(id)
}

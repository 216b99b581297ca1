package checkpointcost

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// txn is one sink transaction: the record ids staged between two barriers.
// Its data lives in the staging file named by ID (the id of the checkpoint
// attempt whose barrier closed it) until it is committed.
type txn struct {
	ID      int   `json:"id"`
	Bytes   int64 `json:"bytes"`
	Records int64 `json:"records"`
}

const (
	stagingDir   = "staging"
	committedDir = "committed"
	txnSuffix    = ".runs"
)

func txnFile(output, sub string, id int) string {
	return filepath.Join(output, sub, fmt.Sprintf("txn-%010d%s", id, txnSuffix))
}

// sink is the committing (two-phase) sink. stage appends a batch's record
// ids to the open transaction; at a barrier, rotate closes it and moves it
// to pending (it becomes part of the snapshot), and the checkpoint's
// asynchronous part makes it durable before the snapshot is written;
// once a checkpoint completed, commitTxns makes the transactions it listed
// visible. The sink's fields belong to the reader's goroutine; the
// asynchronous part gets its own copies.
type sink struct {
	fs      fileSystem
	output  string
	cur     file
	w       *bufio.Writer
	open    txn
	runs    []run
	buf     []byte
	pending []txn
}

func newSink(fsys fileSystem, output string) *sink {
	return &sink{fs: fsys, output: output}
}

// stage appends the ids of one batch to the transaction that the
// checkpoint attempt id will pre-commit.
func (s *sink) stage(id int, parts []int32, offs []int64) error {
	if len(parts) != len(offs) {
		return fmt.Errorf("batch has %d partitions for %d offsets", len(parts), len(offs))
	}
	if len(parts) == 0 {
		return nil
	}
	if s.cur == nil {
		dir := filepath.Join(s.output, stagingDir)
		if err := s.fs.MkdirAll(dir); err != nil {
			return fmt.Errorf("sink: %w", err)
		}
		f, err := s.fs.Create(txnFile(s.output, stagingDir, id))
		if err != nil {
			return fmt.Errorf("sink: %w", err)
		}
		s.cur, s.open = f, txn{ID: id}
		if s.w == nil {
			s.w = bufio.NewWriterSize(f, 64<<10)
		} else {
			s.w.Reset(f)
		}
	}
	s.runs = appendRuns(s.runs[:0], parts, offs)
	s.buf = s.buf[:0]
	for _, r := range s.runs {
		s.buf = appendEncodedRun(s.buf, r)
	}
	if _, err := s.w.Write(s.buf); err != nil {
		return fmt.Errorf("sink: %w", err)
	}
	s.open.Bytes += int64(len(s.buf))
	s.open.Records += int64(len(parts))
	return nil
}

// closing is a transaction closed at a barrier: its data is written to the
// file but not yet durable.
type closing struct {
	f file
	t txn
}

// rotate is the synchronous half of pre-commit, taken at the barrier:
// it writes the open transaction's buffered ids to its file, detaches the
// file and moves the transaction to pending, so batches after the barrier
// go to a new transaction. With nothing staged it returns nil. The caller
// must make the returned transaction durable (closing.durable) before any
// checkpoint that lists it completes.
func (s *sink) rotate() (*closing, error) {
	if s.cur == nil {
		return nil, nil
	}
	c := &closing{f: s.cur, t: s.open}
	s.cur = nil
	if err := s.w.Flush(); err != nil {
		_ = c.f.Close()
		return nil, fmt.Errorf("sink pre-commit of transaction %d: %w", c.t.ID, err)
	}
	s.pending = append(s.pending, s.open)
	return c, nil
}

// durable is the asynchronous half of pre-commit: fsync the transaction's
// file, close it and sync the staging directory. It touches nothing the
// reader's goroutine uses.
func (c *closing) durable(fsys fileSystem, output string) error {
	err := c.f.Sync()
	if cerr := c.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = fsys.SyncDir(filepath.Join(output, stagingDir))
	}
	if err != nil {
		return fmt.Errorf("sink pre-commit of transaction %d: %w", c.t.ID, err)
	}
	return nil
}

// commitTxns commits the transactions a completed checkpoint listed,
// oldest first, and reports how many records became visible.
func commitTxns(fsys fileSystem, output string, txns []txn) (int64, error) {
	var recs int64
	for _, t := range txns {
		if _, err := commitTxn(fsys, output, t); err != nil {
			return recs, err
		}
		recs += t.Records
	}
	return recs, nil
}

// committed drops the first n pending transactions, which a completed
// checkpoint's commit made visible.
func (s *sink) committed(n int) {
	s.pending = s.pending[n:]
}

// close drops the open transaction's file handle without pre-committing;
// its staging file is aborted by the next Restore.
func (s *sink) close() {
	if s.cur != nil {
		_ = s.cur.Close()
		s.cur = nil
	}
}

// commitTxn moves a pre-committed transaction from staging to committed.
// It is idempotent: a transaction already committed (by an earlier reader
// or an earlier Restore) is left alone. It reports whether it committed now.
func commitTxn(fsys fileSystem, output string, t txn) (bool, error) {
	src := txnFile(output, stagingDir, t.ID)
	dst := txnFile(output, committedDir, t.ID)
	if st, err := os.Stat(dst); err == nil {
		if st.Size() != t.Bytes {
			return false, fmt.Errorf("committed transaction %d has %d bytes, its checkpoint says %d", t.ID, st.Size(), t.Bytes)
		}
		return false, nil
	}
	st, err := os.Stat(src)
	if errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("pending transaction %d is neither staged nor committed", t.ID)
	}
	if err != nil {
		return false, fmt.Errorf("commit: %w", err)
	}
	if st.Size() != t.Bytes {
		return false, fmt.Errorf("staged transaction %d has %d bytes, its checkpoint says %d", t.ID, st.Size(), t.Bytes)
	}
	dir := filepath.Join(output, committedDir)
	if err := fsys.MkdirAll(dir); err != nil {
		return false, fmt.Errorf("commit: %w", err)
	}
	if err := fsys.Rename(src, dst); err != nil {
		return false, fmt.Errorf("commit of transaction %d: %w", t.ID, err)
	}
	if err := fsys.SyncDir(dir); err != nil {
		return false, fmt.Errorf("commit of transaction %d: %w", t.ID, err)
	}
	return true, nil
}

// abortStaged deletes every staged transaction. Restore calls it after
// committing the restored checkpoint's pending ones, so what it deletes is
// data staged after that checkpoint, which the new reader reads again.
func abortStaged(fsys fileSystem, output string) error {
	dir := filepath.Join(output, stagingDir)
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("abort: %w", err)
	}
	for _, e := range ents {
		if _, ok := txnID(e.Name()); !ok {
			continue
		}
		if err := fsys.Remove(filepath.Join(dir, e.Name())); err != nil {
			return fmt.Errorf("abort: %w", err)
		}
	}
	return nil
}

// txnID parses "txn-<id>.runs".
func txnID(name string) (int, bool) {
	s, ok := strings.CutPrefix(name, "txn-")
	if !ok {
		return 0, false
	}
	s, ok = strings.CutSuffix(s, txnSuffix)
	if !ok {
		return 0, false
	}
	id, err := strconv.Atoi(s)
	return id, err == nil && id > 0
}

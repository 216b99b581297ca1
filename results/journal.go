package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"sync"
)

// Journal appends Rows to a JSON-lines file, one line per row, each made
// durable (fsync) before Append returns, so a killed ladder loses at most
// the row it was writing.
type Journal struct {
	mu      sync.Mutex
	f       *os.File
	path    string
	dropped int
}

// OpenJournal opens (or creates) the journal at path for appending. An
// existing journal is validated first: a torn last line left by a killed
// ladder is cut off (see Dropped) so new rows never land behind it;
// corruption before the last line is a *FileError naming the file and
// line.
func OpenJournal(path string) (*Journal, error) {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fileError("open journal", path, 0, err)
	}
	_, good, dropped, err := parseJournal(path, data)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fileError("open journal", path, 0, err)
	}
	if good < int64(len(data)) {
		if err := f.Truncate(good); err != nil {
			f.Close()
			return nil, fileError("cut torn last line of journal", path, 0, err)
		}
	}
	if _, err := f.Seek(good, 0); err != nil {
		f.Close()
		return nil, fileError("open journal", path, 0, err)
	}
	return &Journal{f: f, path: path, dropped: dropped}, nil
}

// Dropped reports how many torn trailing lines OpenJournal cut off (0 or 1).
func (j *Journal) Dropped() int { return j.dropped }

// Path returns the journal's file name.
func (j *Journal) Path() string { return j.path }

// Append writes r as one JSON line and fsyncs the file.
func (j *Journal) Append(r Row) error {
	for _, m := range r.Metrics {
		if math.IsNaN(m.Value) || math.IsInf(m.Value, 0) {
			return fmt.Errorf("journal %s: cell %s rep %d: metric %s is %v", j.path, r.Cell, r.Rep, m.Unit, m.Value)
		}
	}
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("journal %s: encode row: %w", j.path, err)
	}
	line = append(line, '\n')
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return fmt.Errorf("journal %s is closed", j.path)
	}
	if _, err := j.f.Write(line); err != nil {
		return fmt.Errorf("journal %s: write: %w", j.path, err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("journal %s: fsync: %w", j.path, err)
	}
	return nil
}

// Close closes the journal file.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return nil
	}
	err := j.f.Close()
	j.f = nil
	if err != nil {
		return fmt.Errorf("journal %s: close: %w", j.path, err)
	}
	return nil
}

// ReadJournal reads every row of the journal at path. A last line that does
// not parse (a ladder killed mid-write) is dropped and counted in dropped;
// an unparsable line before it is a *FileError naming the file and line.
func ReadJournal(path string) (rows []Row, dropped int, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, fileError("read journal", path, 0, err)
	}
	rows, _, dropped, err = parseJournal(path, data)
	return rows, dropped, err
}

// parseJournal decodes data line by line. good is the byte length of the
// valid prefix (through the newline of the last good line).
func parseJournal(path string, data []byte) (rows []Row, good int64, dropped int, err error) {
	var off int64
	for lineNo := 1; len(data) > 0; lineNo++ {
		line := data
		rest := []byte(nil)
		complete := false
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, rest = data[:i], data[i+1:]
			complete = true
		}
		n := int64(len(line))
		if complete {
			n++
		}
		last := len(bytes.TrimSpace(rest)) == 0
		if len(bytes.TrimSpace(line)) > 0 {
			var r Row
			if derr := decodeRow(line, &r); derr != nil || !complete {
				if last {
					return rows, good, 1, nil
				}
				if derr == nil {
					derr = errors.New("missing newline")
				}
				return nil, 0, 0, fileError("read journal", path, lineNo, derr)
			}
			rows = append(rows, r)
		}
		off += n
		good = off
		data = rest
	}
	return rows, good, 0, nil
}

func decodeRow(line []byte, r *Row) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(r); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after row")
	}
	if r.Cell == "" {
		return errors.New("row has no cell")
	}
	return nil
}

// CellRep names one repetition of one cell.
type CellRep struct {
	Cell string
	Rep  int
}

// Finished returns the (cell, rep) pairs that have a journaled row, OK or
// failed: a resumed ladder skips them. (A failed rep is an outcome, not a
// gap; a ladder that wants to retry failures filters rows by OK first.)
func Finished(rows []Row) map[CellRep]bool {
	done := make(map[CellRep]bool, len(rows))
	for _, r := range rows {
		done[CellRep{r.Cell, r.Rep}] = true
	}
	return done
}

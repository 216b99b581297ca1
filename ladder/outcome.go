package ladder

import (
	"errors"
	"fmt"
	"strings"
	"syscall"

	"github.com/fastpathlab/fplab/results"
)

// The ways a session ends other than with every cell passed; cmd/fplab
// prints the error's one line and exits 1 for each (docs/exit-codes.md).
// The run directory is complete in every case (journal, raw.txt, tables,
// manifest) except ErrLocked, which leaves it to its owner.
var (
	// ErrFailedCells: the run finished, but the journal holds failed rows.
	// They are outcomes: --resume does not run them again.
	ErrFailedCells = errors.New("failed cells")
	// ErrInfra: the cluster died, a corpus could not be loaded or the disk
	// is full. The run stopped at once; the cell that failed because of it
	// is not journaled, so --resume runs it again with the rest.
	ErrInfra = errors.New("infrastructure failure")
	// ErrLocked: another ladder holds the run directory.
	ErrLocked = errors.New("run directory in use")
)

// FailedCellsError is the error of a session whose run holds failed rows;
// it matches ErrFailedCells.
type FailedCellsError struct {
	Dir    string
	Failed int // failed rows in the journal
	Rows   int // all rows in the journal
}

func (e *FailedCellsError) Error() string {
	return fmt.Sprintf("%d of %d cell-repetitions failed in %s (reasons in %s; --resume does not rerun them)",
		e.Failed, e.Rows, e.Dir, results.JournalFile)
}

// Unwrap makes errors.Is(err, ErrFailedCells) true.
func (e *FailedCellsError) Unwrap() error { return ErrFailedCells }

// failedCells returns a FailedCellsError when rows hold a failed row.
func failedCells(dir string, rows []results.Row) error {
	n := 0
	for _, r := range rows {
		if !r.OK {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return &FailedCellsError{Dir: dir, Failed: n, Rows: len(rows)}
}

// diskFull reports whether err, or a child's failure text, is ENOSPC.
// Package results and the children report it as text ("no space left on
// device", strerror(ENOSPC) in Go and C alike), so both are checked.
func diskFull(err error, text ...string) bool {
	if err != nil {
		if errors.Is(err, syscall.ENOSPC) {
			return true
		}
		text = append(text, err.Error())
	}
	for _, t := range text {
		if strings.Contains(t, syscall.ENOSPC.Error()) {
			return true
		}
	}
	return false
}

package results

import (
	"errors"
	"io/fs"
	"strconv"
)

// FileError is a failed read of a run file (the journal, the manifest,
// sources.json): what was being done, the file, the line for line-based
// files (0 otherwise) and the cause, the shape of benchfmt's SyntaxError.
// It reads "read journal runs/x/journal.jsonl:3: invalid character ...".
type FileError struct {
	Op   string // "read journal", "read manifest", ...
	File string
	Line int // 1-based; 0 when the error is not about one line
	Err  error
}

// fileError wraps err, read from file; an *fs.PathError on file itself is
// unwrapped to its cause so the message names the file once.
func fileError(op, file string, line int, err error) *FileError {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == file {
		err = pe.Err
	}
	return &FileError{Op: op, File: file, Line: line, Err: err}
}

// Pos is "file:line", or the file alone when Line is 0.
func (e *FileError) Pos() string {
	if e.Line > 0 {
		return e.File + ":" + strconv.Itoa(e.Line)
	}
	return e.File
}

func (e *FileError) Error() string { return e.Op + " " + e.Pos() + ": " + e.Err.Error() }

// Unwrap returns the cause (errors.Is(err, fs.ErrNotExist) holds for a
// missing file).
func (e *FileError) Unwrap() error { return e.Err }

package results

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// WriteTables builds the tables of rows and writes them (WriteTableFiles).
//
// Deprecated: build with BuildTables and write with WriteTableFiles; kept
// until ladder/tables.go does.
func WriteTables(dir string, rows []Row) error {
	return writeTables(dir, NewIndex(rows), TableOptions{})
}

// writeTables builds x's tables and writes them into the run directory dir.
func writeTables(dir string, x *Index, opts TableOptions) error {
	tables, err := BuildTables(x, opts)
	if err != nil {
		return err
	}
	return WriteTableFiles(dir, tables)
}

// WriteTableFiles writes each table as
// dir/tables/<unit>-by-<axis>.{txt,csv,md}, dir being a run directory.
func WriteTableFiles(dir string, tables []Table) error {
	out := filepath.Join(dir, TablesDir)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("write tables: %w", err)
	}
	for _, t := range tables {
		base := filepath.Join(out, TableFileBase(t.Unit, t.Axis))
		for _, f := range []struct {
			ext   string
			write func(io.Writer) error
		}{{".txt", t.WriteText}, {".csv", t.WriteCSV}, {".md", t.WriteMarkdown}} {
			var buf bytes.Buffer
			if err := f.write(&buf); err != nil {
				return err
			}
			if err := os.WriteFile(base+f.ext, buf.Bytes(), 0o644); err != nil {
				return fmt.Errorf("write tables: %w", err)
			}
		}
	}
	return nil
}

// TableFileBase names a table's files: "rec-per-s-by-batch" for rec/s by
// batch. '/' reads "-per-"; anything outside [A-Za-z0-9._-] becomes '_'.
func TableFileBase(unit, axis string) string {
	return FileSafe(strings.ReplaceAll(unit, "/", "-per-")) + "-by-" + FileSafe(axis)
}

// FileSafe keeps s usable in a file name: anything outside [A-Za-z0-9._-]
// becomes '_'.
func FileSafe(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

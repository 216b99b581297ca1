package texttab

import (
	"encoding/csv"
	"fmt"
	"io"
)

// WriteCSV writes every row of t as one CSV record, every record as wide
// as the table.
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.WriteAll(t.grid()); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}

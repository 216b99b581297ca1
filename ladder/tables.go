package ladder

import (
	"fmt"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
)

// writeTables renders the benchstat tables of the run; package results owns
// them.
func writeTables(dir string, rows []results.Row) error {
	return results.WriteTables(dir, rows)
}

// noiseNote summarises the A/A calibration of rec/s for the progress output,
// or returns "" when the pair has no OK rows yet.
func noiseNote(rows []results.Row, cal cell.Cell) string {
	a, b := cal, cal
	a.AA, b.AA = cell.AAFirst, cell.AASecond
	n, err := results.NoiseFloor(rows, a.Name(), b.Name(), results.UnitRecPerSec)
	if err != nil {
		return ""
	}
	s := fmt.Sprintf("A/A noise floor on rec/s: b/a = %.3f", n.Ratio)
	if n.Confidence > 0 {
		s += fmt.Sprintf(", smallest detectable difference %.1f%% at %.0f%%", 100*n.Detectable, 100*n.Confidence)
	}
	if n.Biased {
		s += " (BIASED: the two names of one cell differ)"
	}
	return s
}

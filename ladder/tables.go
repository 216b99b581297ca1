package ladder

import (
	"fmt"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
)

// writeTables renders the benchstat tables of the run from its one index
// of rows; package results owns them.
func writeTables(dir string, x *results.Index) error {
	tables, err := results.BuildTables(x, results.TableOptions{})
	if err != nil {
		return err
	}
	return results.WriteTableFiles(dir, tables)
}

// noiseNote summarises the A/A calibration of rec/s for the progress output,
// or returns "" when the pair has no OK rows yet.
func noiseNote(x *results.Index, cal cell.Cell) string {
	a, b := cal, cal
	a.AA, b.AA = cell.AAFirst, cell.AASecond
	n, err := x.NoiseFloor(a.Name(), b.Name(), results.UnitRecPerSec)
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

package ladder

import (
	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results/headline"
)

// checkHeadline refuses a headline that names what the spec does not run
// (a path it has no cell of, an axis value it does not sweep, a by axis
// with no cells): the report could only say "missing" for it, after the
// whole run. The values are those of the spec's expanded cells, the
// references, the twins and the A/A copies' cells included.
func checkHeadline(s *Spec, cells []cell.Cell) error {
	if len(s.Headline) == 0 {
		return nil
	}
	names := make([]string, len(cells))
	for i, c := range cells {
		names[i] = c.Name()
	}
	axes := headline.NameAxes(names)
	for _, h := range s.Headline {
		c, err := headline.Parse(h)
		if err == nil {
			err = headline.Check(c, axes)
		}
		if err != nil {
			return fieldErrorf("headline", "%v", err)
		}
	}
	return nil
}

package results

import (
	"errors"
	"fmt"
	"strings"
)

// ErrIncomplete marks a comparison that cannot give a verdict: the new run
// measured nothing, or not every cell the old one did. A gate must not
// pass a run whose cells all failed just because no metric regressed.
var ErrIncomplete = errors.New("comparison incomplete")

// missingShown is how many missing cells an incomplete error names.
const missingShown = 3

// Complete returns nil when both runs measured something and the new run
// measured every cell the old one did; otherwise an ErrIncomplete error of
// one line naming the first few missing cells.
func (c Comparison) Complete() error {
	switch {
	case c.NewOK == 0:
		return fmt.Errorf("%w: %s measured nothing (%d journal rows, none OK)", ErrIncomplete, c.NewLabel, c.NewRows)
	case c.OldOK == 0:
		return fmt.Errorf("%w: %s measured nothing (%d journal rows, none OK)", ErrIncomplete, c.OldLabel, c.OldRows)
	case len(c.OnlyOld) > 0:
		shown := c.OnlyOld
		more := ""
		if len(shown) > missingShown {
			shown = shown[:missingShown]
			more = fmt.Sprintf(" and %d more", len(c.OnlyOld)-missingShown)
		}
		return fmt.Errorf("%w: %s lacks %d cell(s) %s measured: %s%s",
			ErrIncomplete, c.NewLabel, len(c.OnlyOld), c.OldLabel, strings.Join(shown, ", "), more)
	}
	return nil
}

// countOK counts the OK rows that count (Index): a repetition resumed
// after a failure is measured.
func countOK(x *Index) int {
	n := 0
	for _, r := range x.Rows() {
		if r.OK {
			n++
		}
	}
	return n
}

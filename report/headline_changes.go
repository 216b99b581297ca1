package report

import (
	"fmt"

	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/headline"
)

// HeadlineChanges computes one set of headline comparisons over two runs
// and sets the rows side by side (`fplab compare --headline OLD NEW`):
// the comparisons of NEW's spec, or OLD's when NEW's names none, so both
// runs answer the same question. Neither naming one is an error.
func HeadlineChanges(oldRun, newRun results.Run, opt Options) ([]headline.Change, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	comps, err := specHeadlines(newRun.Manifest.Spec)
	if err == nil && len(comps) == 0 {
		comps, err = specHeadlines(oldRun.Manifest.Spec)
	}
	if err != nil {
		return nil, err
	}
	if len(comps) == 0 {
		return nil, fmt.Errorf("neither %s nor %s names a headline in its spec (docs/spec.md, headline)", oldRun.Dir, newRun.Dir)
	}
	var rows [2][]headline.Row
	for i, run := range []results.Run{oldRun, newRun} {
		// A comparison one run cannot resolve at all has no rows in it;
		// Changes lists the other run's rows as its own.
		r, _, err := headlineRows(run, comps, opt)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", run.Dir, err)
		}
		rows[i] = r
	}
	return headline.Changes(rows[0], rows[1]), nil
}

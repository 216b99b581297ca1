package bisect

import "context"

// Measurer is the Measure of a real search: build the commit (cached),
// run the spec with it, and hand the run directory to keep (which adds it
// to the history store) before its figure counts.
func Measurer(w Worktrees, l Ladder, keep func(ctx context.Context, runDir string) error) Measure {
	return func(ctx context.Context, commit string) (Sample, error) {
		wt, err := w.Build(ctx, commit)
		if err != nil {
			return Sample{}, err
		}
		s, dir, err := l.Run(ctx, wt)
		if err != nil {
			return Sample{}, err
		}
		if keep != nil {
			if err := keep(ctx, dir); err != nil {
				return Sample{}, err
			}
		}
		return s, nil
	}
}

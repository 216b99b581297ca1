// Package bisect finds the first commit that moved a cell's figure, as
// asv's find does: it builds the commits between a good and a bad one
// (each in a git worktree of its own, built once and cached), runs a spec
// with each commit's own fplab, and narrows the range by halves.
//
//	GOOD..BAD -> worktree + make -> fplab ladder --spec S -> run -> history -> bisect
//
// A commit counts as the good end's or the bad end's only when its figure
// differs from the other end's significantly (a Mann-Whitney U test,
// results.Versus) by more than the runs' A/A floor, and not from its own
// end's; a commit that is neither is measured again, pooling its
// repetitions, and when it still is neither the search stops with "not
// resolved" and the range it had narrowed to, rather than guess. The ends
// themselves must differ that way first.
//
// The parts, each replaceable in tests:
//
//   - Commits lists GOOD and the first-parent commits after it up to BAD.
//   - Worktrees.Build makes a commit's binaries (cached).
//   - Ladder.Run runs the spec with them in the commit's worktree (so the
//     run's manifest names that commit) and reads the run back.
//   - Search is the bisection over any Measure function.
package bisect

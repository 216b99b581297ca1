// Package changepoint finds the points where a noisy series of figures
// changed level, by the method Apache Otava (formerly Hunter) uses on
// performance histories: E-Divisive means candidates (Matteson and James)
// tested with Student's t, over sliding windows, then merged bottom-up
// (Fleming et al., "Hunter: Using Change Point Detection to Hunt for
// Performance Regressions", ICPE 2023).
//
//	spec -> cells -> child process -> result -> journal -> history -> change points (this package)
//
// It works on plain numbers, one per run: results/history hands it a
// (cell, unit, host) series in commit order, each point the median of a
// run's repetitions, with the run's A/A floor.
//
// Detect, in three steps:
//
//   - Candidates. Within an interval, the split that maximises the
//     energy-distance statistic q̂ between what comes before it and what
//     follows it (over every end of the following part), a non-parametric
//     measure that needs no assumption about the shape of the noise.
//   - Split. Over windows of Options.Window points (half a window apart),
//     a window's intervals are divided at their best candidate while the
//     two sides differ by a two-sided t-test at a relaxed p-value; the
//     union of every window's points are the weak change points.
//   - Merge. The weakest point (the largest p-value, if any is not below
//     Options.MaxP; else the smallest magnitude, if it does not pass its
//     threshold) is removed and its neighbours tested again, until every
//     point left is significant and larger than its threshold. A point's
//     threshold is the largest of Options.MinMagnitude and the A/A floors
//     of the two runs it lies between: a change inside the harness's own
//     noise is never reported as one.
//
// With no floors it finds what Otava 0.8.0's compute_change_points finds
// on the same series (changepoint's tests run Otava as their oracle), with
// one difference: after a merge removes a point, both its neighbours are
// tested again (Otava re-tests the right one and the one after it, and
// leaves the left one's statistics as they were).
package changepoint

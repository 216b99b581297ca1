// Package resultstest builds the fixtures the lab's tests share: journal
// rows, whole run directories written through results' own writers (a
// manifest and a journal, as a ladder leaves them), and pprof profiles
// shaped like a cell's. Only tests import it.
//
// The named row sets are the runs the golden files were made from, so a
// change to one of them is a change to every golden file drawn from it:
// SweepRows (plots), SmokeRows, PathsRows and OneCellRows (plots and
// report), GapRows (report and fplab report), TableRows
// (results' tables) and CompareRows (results' compare and fplab compare).
//
// results' own in-package tests cannot import this package (it imports
// results); the ones that use these fixtures are in package results_test.
package resultstest

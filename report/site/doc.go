// Package site writes the history store as a static web site: what a user
// opens to see a cell's figures over commits on every host, where they
// changed, and each run's report. No server is needed to view it.
//
//	runs -> history store -> change points -> site (this package)
//
// Build writes, under one directory:
//
//   - index.html: the latest change points across every cell (worse ones
//     first), the hosts, the runs and the cells;
//   - cells/<cell>.html, a page per cell: a chart per unit with a line per
//     host over commit order, its change points marked with their commit
//     range and move, and a table of every point linking the run's report;
//   - runs/<run>/report.html: each run's report.md rendered, with its
//     figures (plots/) beside it, for the runs whose directories are at
//     hand;
//   - site.js and site.css: the charts are drawn in the browser from the
//     numbers in each page, as SVG, by a small script of the lab's own.
//
// The pages are HTML templates over the store's data (results/history);
// change points come from results/changepoint through the store.
package site

package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fastpathlab/fplab/plots"
	"github.com/fastpathlab/fplab/results"
)

// Write reads the run directory's manifest and journal, draws its figures
// into <runDir>/plots/ and writes <runDir>/report.md, returning its path.
// Failed cells, metrics without samples and single repetitions leave gaps
// ("—" with a footnote), not errors; a missing or unreadable manifest or
// journal is a one-line error naming the file.
func Write(runDir string, opt Options) (string, error) {
	run, err := results.ReadRun(runDir)
	if err != nil {
		return "", fmt.Errorf("report: %v", err)
	}
	md, err := Render(run, opt)
	if err != nil {
		return "", err
	}
	path := filepath.Join(runDir, FileName)
	if err := os.WriteFile(path, []byte(md), 0o644); err != nil {
		return "", fmt.Errorf("report: %v", err)
	}
	return path, nil
}

// Render builds the report of a run read with results.ReadRun. It draws
// the figures into run.Dir/plots/ unless opt.NoPlots.
func Render(run results.Run, opt Options) (string, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return "", err
	}
	main, aa := splitAA(run.Rows)
	link := func(rel string) string { return opt.LinkBase + rel }
	var b strings.Builder
	var n notes
	name := opt.Name
	if name == "" {
		name = filepath.Base(run.Dir)
	}
	fmt.Fprintf(&b, "# Run %s\n\n", mdText(name))
	b.WriteString("Fastpath Lab ladder run: the manifest, the A/A noise floor, the checkpoint knee, figures, tables of every metric and the failed cells. Gaps are shown as " + gapMark + " with a footnote saying why.\n\n")
	writeSummary(&b, &n, run, countRows(main, aa))
	order := specOrder(run.Manifest.Spec)
	if src, err := results.ReadSources(run.Dir); err != nil || len(src) > 0 {
		order = writeSources(&b, &n, src, err, order)
	}
	writeParity(&b, main)
	writeNoise(&b, &n, aa)
	writeKnee(&b, &n, main, opt.BudgetMs)
	writeToggles(&b, &n, main, opt.CostBudget)
	popt := plots.Options{Emulated: run.Manifest.Emulated, BudgetMs: opt.BudgetMs, Prefer: opt.Prefer}
	writeFigures(&b, run.Dir, main, popt, !opt.NoPlots, link)
	writeTables(&b, &n, run.Dir, main, order, run.Manifest.Emulated, link)
	writeProfiles(&b, run.Dir)
	writeFailures(&b, run.Rows)
	n.write(&b)
	return strings.TrimRight(b.String(), "\n") + "\n", nil
}

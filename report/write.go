package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fastpathlab/fplab/plots"
	"github.com/fastpathlab/fplab/results"
)

// Write reads the run directory's manifest and journal (and, in Render,
// its live cells' files), draws its figures into <runDir>/plots/ and
// writes <runDir>/report.md, returning its path. Failed cells, metrics
// without samples and single repetitions leave gaps ("—" with a footnote),
// not errors; a missing or unreadable manifest or journal is a one-line
// error naming the file, an unreadable live file the reason the live
// figures are not drawn.
func Write(runDir string, opt Options) (string, error) {
	run, err := results.ReadRun(runDir)
	if err != nil {
		return "", err
	}
	md, err := Render(run, opt)
	if err != nil {
		return "", err
	}
	path := filepath.Join(runDir, FileName)
	if err := os.WriteFile(path, []byte(md), 0o644); err != nil {
		return "", fmt.Errorf("write report: %w", err)
	}
	return path, nil
}

// Render builds the report of a run read with results.ReadRun. It
// analyses the run once (results.Analyze, with the live cells' latency
// histograms and lag series of run.Dir/live/, results.ReadLive) and hands
// that analysis to every section and to the figures, which it plans once
// and draws into run.Dir/plots/ unless opt.NoPlots.
func Render(run results.Run, opt Options) (string, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return "", err
	}
	order := specOrder(run.Manifest.Spec)
	src, srcErr := results.ReadSources(run.Dir)
	merged := srcErr != nil || len(src) > 0
	if merged && srcErr == nil {
		order = sourcesOrder(src, order)
	}
	// A live folder that cannot be read costs the live figures only: the
	// analysis carries the error and the figures list says why.
	live, liveErr := results.ReadLive(run.Dir)
	a, err := results.Analyze(run.Rows, results.AnalysisOptions{BudgetMs: opt.BudgetMs, LatencyBudgetMs: opt.LatencyBudgetMs, Tables: results.TableOptions{Order: order},
		Live: live, LiveErr: liveErr})
	if err != nil {
		return "", err
	}
	link := func(rel string) string { return opt.LinkBase + rel }
	var b strings.Builder
	var n notes
	name := opt.Name
	if name == "" {
		name = filepath.Base(run.Dir)
	}
	fmt.Fprintf(&b, "# Run %s\n\n", mdText(name))
	if !merged {
		// A merged run's sources were checked when it was merged.
		if why := results.Incomplete(run); why != "" {
			fmt.Fprintf(&b, "> **Incomplete run.** %s. Every figure below covers only what was journaled; `fplab ladder --resume %s` finishes it.\n\n", mdText(why), mdText(run.Dir))
		}
	}
	// The answer first: the spec's headline, then what a parity or
	// checkpoint run was for (the matrix, the knees); the run's facts and
	// the full detail follow.
	popt := plots.Options{Emulated: run.Manifest.Emulated, Prefer: opt.Prefer}
	writeHeadline(&b, run.Dir, run.Manifest.Spec, a, popt, !opt.NoPlots, link)
	writeParity(&b, a.Parity)
	knee := kneeMeasured(a)
	if knee {
		writeKnee(&b, &n, a)
	}
	writeLatencyKnee(&b, &n, a)
	b.WriteString("Fastpath Lab ladder run: the manifest, the A/A noise floor, figures, tables of every metric and the failed cells. Gaps are shown as " + gapMark + " with a footnote saying why.\n\n")
	writeSummary(&b, &n, run, countRows(a))
	writeHistory(&b, opt.History)
	if merged {
		writeSources(&b, &n, src, srcErr)
	}
	writeNoise(&b, &n, a)
	if !knee {
		writeKnee(&b, &n, a) // says there is none, after the run's facts
	}
	writeToggles(&b, &n, a.Sweep, opt.CostBudget)
	writeFigures(&b, run.Dir, a, popt, !opt.NoPlots, link)
	writeTables(&b, &n, run.Dir, a, run.Manifest.Emulated, link)
	writeProfiles(&b, run.Dir)
	writeFailures(&b, a.All)
	n.write(&b)
	return strings.TrimRight(b.String(), "\n") + "\n", nil
}

package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fastpathlab/fplab/plots"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/headline"
)

// specHeadlines are the comparisons the run's spec names in its headline
// list (docs/spec.md), parsed: the question the run was written to answer.
// A spec without one, or a manifest without a spec, has none. A headline
// that no longer parses (a run written by another version of the lab) is
// an error naming it; the report says so in its place.
func specHeadlines(spec json.RawMessage) ([]headline.Comparison, error) {
	var fields struct {
		Headline []string `json:"headline"`
	}
	spec = results.SpecBody(spec)
	if len(spec) == 0 || json.Unmarshal(spec, &fields) != nil {
		return nil, nil
	}
	comps := make([]headline.Comparison, 0, len(fields.Headline))
	for _, h := range fields.Headline {
		c, err := headline.Parse(h)
		if err != nil {
			return nil, err
		}
		comps = append(comps, c)
	}
	return comps, nil
}

// Headline computes the run's headline rows (its spec's comparisons over
// the analysed run) for `fplab report --headline`; a run whose spec names
// none is an error saying so.
func Headline(run results.Run, opt Options) ([]headline.Row, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	comps, err := specHeadlines(run.Manifest.Spec)
	if err != nil {
		return nil, err
	}
	if len(comps) == 0 {
		return nil, fmt.Errorf("%s: the run's spec names no headline (docs/spec.md, headline)", run.Dir)
	}
	rows, unresolved, err := headlineRows(run, comps, opt)
	if err != nil {
		return nil, err
	}
	return rows, unresolved
}

// headlineRows analyses run as the report does and computes comps over
// it; opt has its defaults already. unresolved is Compute's error, naming
// the comparisons the run cannot resolve at all (the rows of the others
// come back all the same); err is the analysis's.
func headlineRows(run results.Run, comps []headline.Comparison, opt Options) (rows []headline.Row, unresolved, err error) {
	a, err := results.Analyze(run.Rows, results.AnalysisOptions{BudgetMs: opt.BudgetMs, LatencyBudgetMs: opt.LatencyBudgetMs,
		Tables: results.TableOptions{Order: specOrder(run.Manifest.Spec)}})
	if err != nil {
		return nil, nil, err
	}
	rows, unresolved = headline.Compute(a, comps)
	return rows, unresolved, nil
}

// writeHeadline opens the report with the answer to the spec's question:
// the sentences the headline rows make, then their figure (plots.
// HeadlineFigure, drawn into <runDir>/plots/ when draw is set; otherwise
// the image already there is linked) with its caption, then their table.
// Rows Compute could not make (a comparison the run cannot resolve at
// all) are listed after the table with the reason; a spec without a
// headline writes nothing.
func writeHeadline(b *strings.Builder, runDir string, spec json.RawMessage, a *results.Analysis, popt plots.Options, draw bool, link func(string) string) {
	comps, err := specHeadlines(spec)
	if err != nil {
		fmt.Fprintf(b, "## Headline\n\nThe spec's headline cannot be read: %s.\n\n", mdText(err.Error()))
		return
	}
	if len(comps) == 0 {
		return
	}
	rows, err := headline.Compute(a, comps)
	b.WriteString("## Headline\n\n")
	for _, s := range headline.Sentences(rows) {
		b.WriteString(mdText(s) + "\n\n")
	}
	writeHeadlineFigure(b, runDir, plots.HeadlineFigure(rows, popt), popt, draw, link)
	var t strings.Builder
	if werr := headline.WriteMarkdown(&t, rows); werr == nil {
		b.WriteString(t.String())
		b.WriteString("\n")
	}
	if err != nil {
		b.WriteString("Not computed:\n\n")
		for _, l := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(b, "- %s\n", mdText(l))
		}
		b.WriteString("\n")
	}
}

// writeHeadlineFigure draws fig into <runDir>/plots/ when draw is set and
// links its PNG, with its caption and SVG link, as writeFigures links
// each figure. A skipped figure (no row has a ratio: the sentences say
// why) writes nothing, and so does one not drawn yet when draw is off; a
// figure that cannot be drawn says so.
func writeHeadlineFigure(b *strings.Builder, runDir string, fig plots.Figure, popt plots.Options, draw bool, link func(string) string) {
	if fig.Skip != "" {
		return
	}
	if draw {
		if _, err := plots.WriteFigure(runDir, fig, popt); err != nil {
			fmt.Fprintf(b, "The headline figure could not be drawn: %s\n\n", mdText(err.Error()))
			return
		}
	}
	png := plots.Dir + "/" + fig.Name + ".png"
	if _, err := os.Stat(filepath.Join(runDir, filepath.FromSlash(png))); err != nil {
		return
	}
	fmt.Fprintf(b, "![%s](%s)\n\n", mdText(strings.ReplaceAll(fig.Title, "\n", " — ")), link(png))
	svg := plots.Dir + "/" + fig.Name + ".svg"
	if _, err := os.Stat(filepath.Join(runDir, filepath.FromSlash(svg))); err == nil {
		fmt.Fprintf(b, "%s [SVG](%s)\n\n", mdText(fig.Caption), link(svg))
	} else {
		fmt.Fprintf(b, "%s\n\n", mdText(fig.Caption))
	}
}

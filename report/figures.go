package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fastpathlab/fplab/plots"
	"github.com/fastpathlab/fplab/results"
)

// writeFigures plans the run's figures once from the analysis
// (plots.Plan), draws them (plots.WriteAll) unless told not to, links each
// PNG (and its SVG) with its caption, and lists the figures not drawn with
// the reason.
func writeFigures(b *strings.Builder, runDir string, a *results.Analysis, popt plots.Options, draw bool, link func(string) string) {
	b.WriteString("## Figures\n\n")
	figs, err := plots.Plan(a, popt)
	if err != nil {
		fmt.Fprintf(b, "Figures could not be planned: %s\n\n", mdText(err.Error()))
		return
	}
	if draw {
		if _, err := plots.WriteAll(runDir, figs, popt); err != nil {
			fmt.Fprintf(b, "Figures could not be drawn: %s\n\n", mdText(err.Error()))
			return
		}
	}
	var skipped []string
	drawn := 0
	for _, fig := range figs {
		if fig.Skip != "" {
			skipped = append(skipped, fmt.Sprintf("- `%s`: %s\n", fig.Name, mdText(fig.Skip)))
			continue
		}
		png := plots.Dir + "/" + fig.Name + ".png"
		if _, err := os.Stat(filepath.Join(runDir, filepath.FromSlash(png))); err != nil {
			skipped = append(skipped, fmt.Sprintf("- `%s`: not drawn yet (no %s)\n", fig.Name, png))
			continue
		}
		drawn++
		title := strings.ReplaceAll(fig.Title, "\n", " — ")
		fmt.Fprintf(b, "### %s\n\n", mdText(title))
		fmt.Fprintf(b, "![%s](%s)\n\n", mdText(title), link(png))
		svg := plots.Dir + "/" + fig.Name + ".svg"
		if _, err := os.Stat(filepath.Join(runDir, filepath.FromSlash(svg))); err == nil {
			fmt.Fprintf(b, "%s [SVG](%s)\n\n", mdText(fig.Caption), link(svg))
		} else {
			fmt.Fprintf(b, "%s\n\n", mdText(fig.Caption))
		}
	}
	if drawn == 0 {
		b.WriteString("No figure: the run has no data any figure can show.\n\n")
	}
	if len(skipped) > 0 {
		b.WriteString("Not drawn:\n\n")
		for _, s := range skipped {
			b.WriteString(s)
		}
		b.WriteString("\n")
	}
}

package report

import (
	"fmt"
	"strings"

	"github.com/fastpathlab/fplab/results/history"
)

// writeHistory says where the run's figures stand against the last runs
// of each cell on its host (Options.History), the figures outside their
// range in a table.
func writeHistory(b *strings.Builder, h *History) {
	if h == nil {
		return
	}
	fmt.Fprintf(b, "## Against the history\n\n%s The store: `%s`; every cell's figures over commits are on the history site (`fplab history site`).\n\n",
		mdText(history.StandingsSummary(h.Standings, h.Skipped, h.Last)), mdText(h.Store))
	for _, s := range h.Standings {
		if s.Outside {
			var t strings.Builder
			history.StandingsTable(h.Standings).WriteMarkdown(&t)
			b.WriteString(t.String() + "\n")
			return
		}
	}
}

package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fastpathlab/fplab/plots"
	"github.com/fastpathlab/fplab/results"
)

// writeSources renders, for a merged run (results.Merge), the runs it was
// merged from: one row per arch= value with its host, so every column of
// the tables can be traced to a machine. Emulated sources are flagged.
func writeSources(b *strings.Builder, n *notes, src []results.Source, err error) {
	b.WriteString("## Merged runs\n\n")
	if err != nil {
		fmt.Fprintf(b, "The list of merged runs is unreadable: %s\n\n", mdText(err.Error()))
		return
	}
	b.WriteString("This report merges runs from several hosts; every cell name carries `" + results.ArchKey + "=` with the host's architecture, so the tables set them side by side.\n\n")
	t := table([]string{"---", "---", "---", "---", "---", "---", "---", "---", "--:", "---"},
		results.ArchKey, "host", "cpu", "kernel", "emulated", "commit", "go", "librdkafka", "rows (failed)", "run directory")
	val := func(s string) string {
		if strings.TrimSpace(s) == "" || s == results.Unknown {
			return n.gap("not recorded in the source run's manifest")
		}
		return mdText(s)
	}
	emulated := false
	for _, s := range src {
		cpu := val(s.Host.CPUModel)
		if s.Host.Cores > 0 {
			cpu += " (" + strconv.Itoa(s.Host.Cores) + " CPUs)"
		}
		emu := "no"
		if s.Emulated {
			emu = "**yes — " + plots.EmulatedLabel + "**"
			emulated = true
		}
		commit := val(s.GitCommit)
		if s.GitDirty {
			commit += " (dirty)"
		}
		t.Row().Cells("`"+mdText(s.Label)+"`", val(s.Host.Hostname), cpu, val(s.Host.Kernel), emu, commit,
			val(s.GoVersion), val(s.Librdkafka), fmt.Sprintf("%d (%d)", s.Rows, s.Failed), "`"+mdText(s.Dir)+"`")
	}
	putTable(b, t)
	if emulated {
		b.WriteString("> Columns whose " + results.ArchKey + " value ends in `-emulated` ran under an emulator: they show that the build works, not how fast ARM is.\n\n")
	}
}

// sourcesOrder returns order with the arch axis in the merged runs' order
// (the first run is the baseline column).
func sourcesOrder(src []results.Source, order map[string][]string) map[string][]string {
	labels := make([]string, 0, len(src))
	for _, s := range src {
		labels = append(labels, s.Label)
	}
	out := make(map[string][]string, len(order)+1)
	for k, v := range order {
		out[k] = v
	}
	out[results.ArchKey] = labels
	return out
}

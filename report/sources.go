package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fastpathlab/fplab/plots"
	"github.com/fastpathlab/fplab/results"
)

// writeSources renders, for a merged run (results.Merge), the runs it was
// merged from: one row per arch= (or records=) value with its host, so
// every column of the tables can be traced to a machine and a run.
// Emulated sources are flagged.
func writeSources(b *strings.Builder, n *notes, src []results.Source, err error) {
	b.WriteString("## Merged runs\n\n")
	if err != nil {
		fmt.Fprintf(b, "The list of merged runs is unreadable: %s\n\n", mdText(err.Error()))
		return
	}
	key := results.ArchKey
	if len(src) > 0 {
		key = src[0].MergeKey()
	}
	if key == results.RecordsKey {
		b.WriteString("This report merges runs of one spec at several corpus lengths; every cell name carries `" + key + "=` with its run's spec records, so the tables and figures set each path's rec/s and memory against records. " +
			"The runs' specs differ only in records and repetitions (unless the merge was forced); the ladder spec below is the smallest run's.\n\n")
	} else {
		b.WriteString("This report merges runs from several hosts; every cell name carries `" + key + "=` with the host's architecture, so the tables set them side by side.\n\n")
	}
	t := table([]string{"---", "---", "---", "---", "---", "---", "---", "---", "--:", "---"},
		key, "host", "cpu", "kernel", "emulated", "commit", "go", "librdkafka", "rows (failed)", "run directory")
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
	switch {
	case emulated && key == results.ArchKey:
		b.WriteString("> Columns whose " + results.ArchKey + " value ends in `-emulated` ran under an emulator: they show that the build works, not how fast ARM is.\n\n")
	case emulated:
		b.WriteString("> A run marked emulated ran under an emulator: its timings say nothing about its host's hardware.\n\n")
	}
}

// sourcesOrder returns order with the merge's axis (arch, or records) in
// the merged runs' order (the first run is the baseline column; a merge by
// records orders its runs smallest first).
func sourcesOrder(src []results.Source, order map[string][]string) map[string][]string {
	labels := make([]string, 0, len(src))
	for _, s := range src {
		labels = append(labels, s.Label)
	}
	out := make(map[string][]string, len(order)+1)
	for k, v := range order {
		out[k] = v
	}
	if len(src) > 0 {
		out[src[0].MergeKey()] = labels
	}
	return out
}

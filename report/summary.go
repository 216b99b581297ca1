package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/plots"
	"github.com/fastpathlab/fplab/results"
)

// writeSummary renders the manifest: where and with what the run measured.
// A field the manifest lacks is a gap with a footnote, never a made-up
// value.
func writeSummary(b *strings.Builder, n *notes, run results.Run, counts rowCounts) {
	m := run.Manifest
	missing := func() string { return n.gap("not recorded in the manifest") }
	val := func(s string) string {
		if strings.TrimSpace(s) == "" || s == results.Unknown {
			return missing()
		}
		return mdText(s)
	}
	when := func(t time.Time) string {
		if t.IsZero() {
			return missing()
		}
		return t.UTC().Format(time.RFC3339)
	}
	b.WriteString("## Run\n\n")
	if m.Emulated {
		fmt.Fprintf(b, "> **%s.** The children ran under an emulator; timings say nothing about ARM hardware.\n\n", plots.EmulatedLabel)
	}
	t := table([]string{"---", "---"}, "", "")
	row := func(k, v string) { t.Row().Cells(k, v) }
	h := m.Host
	cores := ""
	if h.Cores > 0 {
		cores = strconv.Itoa(h.Cores)
	}
	row("host", val(h.Hostname))
	cpu := val(h.CPUModel)
	if cores != "" {
		cpu += " (" + cores + " logical CPUs)"
	}
	row("cpu", cpu)
	row("arch", val(h.Arch))
	row("kernel", val(h.Kernel))
	row("governor / SMT / THP", val(h.Governor)+" / "+val(h.SMT)+" / "+val(h.THP))
	row("go", val(m.GoVersion))
	row("librdkafka", val(m.Librdkafka))
	row("allocators", val(allocList(m.AllocVersions)))
	commit := val(m.GitCommit)
	if m.GitDirty {
		commit += " (dirty: uncommitted changes)"
	}
	row("commit", commit)
	row("build flags", val(m.BuildFlags))
	row("start", when(m.Start))
	row("end", when(m.End))
	if !m.Start.IsZero() && !m.End.IsZero() && m.End.After(m.Start) {
		row("wall time", m.End.Sub(m.Start).Round(time.Second).String())
	}
	var frac string
	if m.MeasuredFraction > 0 {
		frac = pct(m.MeasuredFraction)
	} else {
		frac = missing()
	}
	row("measured-time fraction", frac)
	emu := "no"
	if m.Emulated {
		emu = "**yes — " + plots.EmulatedLabel + "**"
	}
	row("emulated", emu)
	rowsText := plural(counts.cells, "cell") + ", " + plural(counts.reps, "repetition") + fmt.Sprintf(" (%d failed)", counts.failed)
	if counts.aa > 0 {
		rowsText += "; plus " + plural(counts.aa, "A/A calibration repetition")
	}
	row("journal", rowsText)
	if run.Dropped > 0 {
		row("torn journal lines", fmt.Sprintf("%d dropped (the ladder was killed mid-write)", run.Dropped))
	}
	putTable(b, t)
	if spec := indentJSON(m.Spec); spec != "" {
		f := fence(spec)
		fmt.Fprintf(b, "<details><summary>Ladder spec</summary>\n\n%sjson\n%s\n%s\n\n</details>\n\n", f, spec, f)
	}
}

func allocList(versions map[string]string) string {
	keys := make([]string, 0, len(versions))
	for k := range versions {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+" "+versions[k])
	}
	return strings.Join(parts, ", ")
}

func indentJSON(raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return ""
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return string(raw)
	}
	return buf.String()
}

package report

import "strings"

// writeHistory adds the section on where the run stands against the
// history (Options.History, Markdown written by results/history).
func writeHistory(b *strings.Builder, section string) {
	if section == "" {
		return
	}
	b.WriteString(strings.TrimRight(section, "\n") + "\n\n")
}

package report

import (
	"fmt"
	"strings"

	"github.com/fastpathlab/fplab/results"
)

// writeParity writes the parity matrix (results.Parity) of a run whose
// cells name parity cases, tombstones or transactions: case x path ->
// pass, or FAIL with the one-line reason; then, per failure case, the
// error line each path surfaced. A run without such cells (m nil) gets
// nothing.
func writeParity(b *strings.Builder, m *results.ParityMatrix) {
	if m == nil {
		return
	}
	b.WriteString("## Parity matrix\n\n")
	b.WriteString("Each line is one situation on a topic of its own, each column one path. A cell passes when every repetition read exactly the committed records of its range, in offset order per partition, tombstones as all-null rows, and finished at the stop captured at open; a failure case passes when the path failed with one line naming the failure set up, within the cell's timeout.\n\n")
	rules := []string{"---"}
	head := []string{"case"}
	for _, p := range m.Paths {
		rules = append(rules, ":-:")
		head = append(head, p)
	}
	t := table(rules, head...)
	var failed []string
	for _, c := range m.Cases {
		row := t.Row().Cells(mdText(c))
		for _, p := range m.Paths {
			e, ok := m.Entries[c][p]
			switch {
			case !ok:
				row.Cells("—")
			case e.Pass:
				row.Cells("pass")
			default:
				row.Cells("**FAIL**")
				failed = append(failed, fmt.Sprintf("- %s, %s: %s", mdText(c), p, mdText(orDefault(e.Reason, "no reason recorded"))))
			}
		}
	}
	putTable(b, t)
	if len(failed) > 0 {
		b.WriteString("Why the failed cells failed:\n\n" + strings.Join(failed, "\n") + "\n\n")
	}
	var surfaced []string
	for _, c := range m.Cases {
		for _, p := range m.Paths {
			if e := m.Entries[c][p]; e.Surfaced != "" {
				surfaced = append(surfaced, fmt.Sprintf("- %s, %s: `%s`", mdText(c), p, strings.ReplaceAll(e.Surfaced, "`", "'")))
			}
		}
	}
	if len(surfaced) > 0 {
		b.WriteString("What each path surfaced in the failure cases:\n\n" + strings.Join(surfaced, "\n") + "\n\n")
	}
}

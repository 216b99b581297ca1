package report

import (
	"fmt"
	"strings"
)

// notes numbers the report's footnotes: every gap ("—") points to one that
// says why it is a gap. Equal texts share a number.
type notes struct {
	list []string
	idx  map[string]int
}

// ref registers text and returns its Markdown reference, "[^3]".
func (n *notes) ref(text string) string {
	if n.idx == nil {
		n.idx = make(map[string]int)
	}
	i, ok := n.idx[text]
	if !ok {
		n.list = append(n.list, text)
		i = len(n.list)
		n.idx[text] = i
	}
	return fmt.Sprintf("[^%d]", i)
}

// gap is a gap in a table: a dash and the footnote saying why.
func (n *notes) gap(why string) string { return gapMark + n.ref(why) }

const gapMark = "—"

// write renders the footnote definitions.
func (n *notes) write(b *strings.Builder) {
	if len(n.list) == 0 {
		return
	}
	b.WriteString("## Notes\n\n")
	for i, t := range n.list {
		fmt.Fprintf(b, "[^%d]: %s\n", i+1, mdText(t))
	}
	b.WriteString("\n")
}

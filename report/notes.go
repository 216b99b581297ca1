package report

import (
	"fmt"
	"strings"

	"github.com/fastpathlab/fplab/results/texttab"
)

// notes numbers the report's footnotes: every gap ("—") points to one that
// says why it is a gap. Equal texts share a number.
type notes struct{ fn texttab.Footnotes }

// ref registers text and returns its Markdown reference, "[^3]".
func (n *notes) ref(text string) string { return n.refs([]string{text}) }

// refs registers texts and returns their references, "[^3][^4]".
func (n *notes) refs(texts []string) string {
	if n.fn.Mark == nil {
		n.fn.Mark = func(i int) string { return fmt.Sprintf("[^%d]", i) }
	}
	return n.fn.Refs("", texts...)
}

// gap is a gap in a table: a dash and the footnote saying why.
func (n *notes) gap(why string) string { return gapMark + n.ref(why) }

const gapMark = texttab.Gap

// write renders the footnote definitions.
func (n *notes) write(b *strings.Builder) {
	if len(n.fn.Texts()) == 0 {
		return
	}
	b.WriteString("## Notes\n\n")
	for i, t := range n.fn.Texts() {
		fmt.Fprintf(b, "[^%d]: %s\n", i+1, mdText(t))
	}
	b.WriteString("\n")
}

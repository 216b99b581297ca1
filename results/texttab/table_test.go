package texttab

import (
	"io"
	"strings"
	"testing"
)

// profileGrid is a small table of the profiles' shape: a text column,
// then right-aligned figures two spaces apart.
func profileGrid() *Table {
	t := New(AlignDefault, AlignRight, AlignRight)
	t.SetMargin(1, "  ").SetMargin(2, "  ")
	t.Row().Cells("bucket", "cpu", "share")
	t.Row().Cells("decode", "40.0ms", "32.3%")
	t.Row().Cells("gc", "0ns")
	return t
}

// groups is the layout of a results table: column groups after " │ ",
// sub-columns whose margins show only before a value, an all-empty
// sub-column taking no room, header labels spanning sub-columns, and a
// span wider than its columns widening the last of them.
func groups() *Table {
	t := New(AlignLeft, AlignRight, AlignRight, AlignLeft, AlignLeft)
	t.SetMargin(1, "   ").SetMargin(2, " ± ").SetMargin(3, " ").SetMargin(4, "").SetMargin(5, "  ")
	head, left := WithMargin(" │ "), Aligned(AlignLeft)
	t.Row().Col(1).Span(4, "a rather long label", head, left).Cell("", WithMargin(" │"))
	t.Row().Cell("axis").Span(2, "rec/s", head, left).Col(5).Cell("", WithMargin(" │"))
	t.Row().Cells("x=1", "3.991M", "1%", "!")
	t.Row().Cells("x=22", "12.00k", "18%", "").Col(5).Cell("note")
	t.Row().Cell("x=333")
	return t
}

func TestRender(t *testing.T) {
	tight := profileGrid()
	tight.TightRule = true
	overflow := New()
	overflow.Row().Cell("wider than the next column's start").Cell("b")
	overflow.Row().Cells("a", "c", "d")
	csv := New()
	csv.Row().Cells("label", "a, b").Span(2, "wide")
	csv.Row().Cells("x", `say "hi"`)
	for _, c := range []struct {
		name  string
		write func(io.Writer) error
		want  string
	}{
		{"text", profileGrid().WriteText, "" +
			"bucket     cpu  share\n" +
			"decode  40.0ms  32.3%\n" +
			"gc         0ns\n"},
		{"markdown", profileGrid().WriteMarkdown, "" +
			"| bucket | cpu | share |\n" +
			"| --- | --: | --: |\n" +
			"| decode | 40.0ms | 32.3% |\n" +
			"| gc | 0ns |  |\n"},
		{"tight rule", tight.WriteMarkdown, "" +
			"| bucket | cpu | share |\n" +
			"|---|--:|--:|\n" +
			"| decode | 40.0ms | 32.3% |\n" +
			"| gc | 0ns |  |\n"},
		{"groups", groups().WriteText, "" +
			"      │ a rather long label │\n" +
			"axis  │ rec/s               │\n" +
			"x=1     3.991M ±  1% !\n" +
			"x=22    12.00k ± 18%         note\n" +
			"x=333\n"},
		{"overflow moves right", overflow.WriteText, "" +
			"wider than the next column's start b\n" +
			"a                                  c d\n"},
		{"csv", csv.WriteCSV, "label,\"a, b\",wide,\nx,\"say \"\"hi\"\"\",,\n"},
	} {
		var b strings.Builder
		if err := c.write(&b); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); got != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
}

func TestAlignOf(t *testing.T) {
	for rule, want := range map[string]Align{"---": AlignDefault, ":--": AlignLeft, "--:": AlignRight, ":-:": AlignCenter} {
		if got := AlignOf(rule); got != want || got.rule() != rule {
			t.Errorf("AlignOf(%q) = %v (rule %q)", rule, got, got.rule())
		}
	}
}

func TestFootnotes(t *testing.T) {
	var f Footnotes
	if got := f.Refs(" ", "too few", "all equal", "too few"); got != "¹ ²" {
		t.Errorf("Refs = %q", got)
	}
	if got := f.Ref("all equal"); got != "²" {
		t.Errorf("Ref of a known text = %q", got)
	}
	if got := strings.Join(f.Lines(), "|"); got != "¹ too few|² all equal" {
		t.Errorf("Lines = %q", got)
	}
	md := Footnotes{Mark: func(i int) string { return "[^" + Superscript(i) + "]" }}
	md.Ref("x")
	if got := md.Refs("", "y", "x"); got != "[^²][^¹]" {
		t.Errorf("custom marks = %q", got)
	}
	if got := Superscript(120); got != "¹²⁰" {
		t.Errorf("Superscript(120) = %q", got)
	}
}

// TestNumbers: one formatter, benchunit's decimal scale, for tables,
// report lines and axis labels.
func TestNumbers(t *testing.T) {
	for _, c := range []struct {
		v             float64
		number, label string
	}{
		{0, "0.000", "0"},
		{0.5, "500.0m", "500m"},
		{37.31, "37.31", "37.31"},
		{950, "950.0", "950"},
		{2500, "2.500k", "2.5k"},
		{2.712e6, "2.712M", "2.712M"},
		{3e6, "3.000M", "3M"},
		{-1.25e9, "-1.250G", "-1.25G"},
	} {
		if got := Number(c.v); got != c.number {
			t.Errorf("Number(%v) = %q, want %q", c.v, got, c.number)
		}
		if got := Label(c.v); got != c.label {
			t.Errorf("Label(%v) = %q, want %q", c.v, got, c.label)
		}
	}
	// A row shares one scale, as benchstat's rows do.
	sc := Scale(2.02e6, 202e3)
	if got := sc.Format(2.02e6) + " " + sc.Format(202e3); got != "2020.0k 202.0k" {
		t.Errorf("row scale: %s", got)
	}
}

func TestEscape(t *testing.T) {
	if got := Escape("a|b *c* _d_ <e>\r\nf"); got != `a\|b \*c\* \_d\_ &lt;e> f` {
		t.Errorf("Escape = %q", got)
	}
}

func TestCompact(t *testing.T) {
	for v, want := range map[float64]string{100: "100", 1234.56: "1235", 37.3125: "37.31", 0.000123456: "0.0001235", -2.5: "-2.5"} {
		if got := Compact(v); got != want {
			t.Errorf("Compact(%v) = %q, want %q", v, got, want)
		}
	}
}

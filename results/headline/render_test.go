package headline

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/internal/golden"
)

// fixtureHeadlineRows are the golden files' rows: fixtureHeadlines over
// fixtureRows, the first with an upstream figure (its headline's
// upstream clause).
func fixtureHeadlineRows(t *testing.T) []Row {
	t.Helper()
	hs := append([]string(nil), fixtureHeadlines...)
	hs[0] += " upstream 2.1-3.2×"
	cs := parseAll(t, hs)
	rows, err := Compute(fixtureAnalysis(t), cs)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestWriteText(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, fixtureHeadlineRows(t)); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "headline.txt.golden", b.Bytes())
}

func TestWriteMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := WriteMarkdown(&b, fixtureHeadlineRows(t)); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "headline.md.golden", b.Bytes())
	// Compact: no row wider than six columns.
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "|") && strings.Count(strings.ReplaceAll(l, `\|`, ""), "|") > 7 {
			t.Errorf("a Markdown row of more than six columns: %s", l)
		}
	}
}

// TestSentences: at most three, one per kind of finding, each ending in a
// full stop; one per paragraph in the golden file.
func TestSentences(t *testing.T) {
	ss := Sentences(fixtureHeadlineRows(t))
	if len(ss) < 2 || len(ss) > 3 {
		t.Errorf("%d sentences, want two or three", len(ss))
	}
	for _, s := range ss {
		if !strings.HasSuffix(s, ".") || strings.Contains(s, "\n") {
			t.Errorf("not one sentence: %q", s)
		}
	}
	golden.Check(t, "sentences.golden", []byte(strings.Join(ss, "\n\n")+"\n"))
}

// TestSentencesOne: a single resolved comparison is one sentence, its
// floor named; one not resolved, another.
func TestSentencesOne(t *testing.T) {
	rows, err := Compute(fixtureAnalysis(t), parseAll(t, []string{"fast/flink on json", "fast/java on raw"}))
	if err != nil {
		t.Fatal(err)
	}
	got := Sentences(rows)
	want := []string{
		"fast reads 4.00× flink on json (resolved, outside the 4.9% A/A floor).",
		"fast/java on raw is not resolved (0.99× [0.96, 1.03], p=0.69).",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Sentences:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestRenderNothing(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, nil); err != nil || b.Len() != 0 {
		t.Errorf("WriteText of no rows wrote %q, %v", b.String(), err)
	}
	if err := WriteMarkdown(&b, nil); err != nil || b.Len() != 0 {
		t.Errorf("WriteMarkdown of no rows wrote %q, %v", b.String(), err)
	}
	if ss := Sentences(nil); ss != nil {
		t.Errorf("Sentences of no rows: %q", ss)
	}
}

func TestFormat(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{formatRatio(3.4217), "3.42×"},
		{formatRatio(12.345), "12.3×"},
		{formatRatio(9.996), "10.0×"},
		{formatRatio(0.0412), "0.0412×"},
		{formatInterval(3.1, 3.8), "[3.10, 3.80]"},
		{formatP(0.0079), "p=0.008"},
		{formatP(0.31), "p=0.31"},
		{formatP(0.0004), "p<0.001"},
		{formatPct(0.06), "6%"},
		{formatPct(0.0612), "6.1%"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %s, want %s", tt.got, tt.want)
		}
	}
}

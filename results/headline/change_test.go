package headline

import (
	"bytes"
	"testing"

	"github.com/fastpathlab/fplab/internal/golden"
)

// TestChanges: a run against itself moves nothing; against a copy whose
// rows are shifted past their intervals, the rows with intervals move and
// the others stay "~"; rows one run lacks are listed as such.
func TestChanges(t *testing.T) {
	old := fixtureHeadlineRows(t)
	for _, c := range Changes(old, old) {
		if c.Moved || c.Old == nil || c.New == nil {
			t.Errorf("a run against itself: %+v", c)
		}
	}
	shifted := make([]Row, len(old))
	copy(shifted, old)
	moved := 0
	for i := range shifted {
		r := &shifted[i]
		if hasInterval(*r) {
			moved++
			k := 1.25 * r.Ratio.Hi / r.Ratio.Lo // past the old interval's width
			r.Ratio.Ratio, r.Ratio.Lo, r.Ratio.Hi = r.Ratio.Ratio*k, r.Ratio.Lo*k, r.Ratio.Hi*k
		}
	}
	last := shifted[len(shifted)-1]
	shifted = shifted[:len(shifted)-1] // the new run lacks the old's last row
	cs := Changes(old, shifted)
	if len(cs) != len(old) {
		t.Fatalf("%d changes for %d rows", len(cs), len(old))
	}
	got := 0
	for _, c := range cs {
		if c.Moved {
			got++
		}
	}
	if hasInterval(last) {
		moved--
	}
	if got != moved || moved == 0 {
		t.Errorf("moved %d rows, want %d", got, moved)
	}
	if end := cs[len(cs)-1]; end.New != nil || end.Old == nil || changeText(end) != "old only" {
		t.Errorf("the row the new run lacks: %+v", end)
	}
	var b bytes.Buffer
	if err := WriteChanges(&b, cs); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "changes.txt.golden", b.Bytes())
}

package profile

import (
	"math"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/results/resultstest"
)

func TestDiffPerUnit(t *testing.T) {
	a, b := cellBreakdowns(t) // A: 100000 rec, B: 200000 rec
	d, err := Diff(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Sections) != 1 || !d.Sections[0].PerUnit || d.LabelA != a.Label || d.LabelB != b.Label {
		t.Fatalf("sections %d, labels %q %q", len(d.Sections), d.LabelA, d.LabelB)
	}
	s := d.Sections[0]
	if len(s.Rows) != len(AllBuckets()) {
		t.Fatalf("%d rows", len(s.Rows))
	}
	dec := s.Rows[BucketDecode]
	// A decode 40ms / 1e5 rec = 400 ns/rec; B 50ms / 2e5 rec = 250 ns/rec.
	if dec.Name != "decode" || dec.A != 400 || dec.B != 250 || dec.Delta != -150 || !dec.RelOK || math.Abs(dec.Rel+0.375) > 1e-12 {
		t.Errorf("decode row %+v", dec)
	}
	cl := s.Rows[BucketClient]
	if cl.A != 0 || cl.B != 200 || cl.RelOK {
		t.Errorf("client row %+v", cl)
	}
	if s.Total.A != 1240 || s.Total.B != 700 || s.Total.ShareA != 1 || s.Total.ShareB != 1 {
		t.Errorf("total row %+v", s.Total)
	}
	var shareDelta float64
	for _, r := range s.Rows {
		shareDelta += r.ShareDelta
	}
	if math.Abs(shareDelta) > 1e-12 {
		t.Errorf("share deltas sum to %v", shareDelta)
	}
}

func TestDiffAbsoluteWhenWorkUnknown(t *testing.T) {
	a, b := cellBreakdowns(t)
	d, err := Diff(a, b.PerUnit(0))
	if err != nil {
		t.Fatal(err)
	}
	if d.Sections[0].PerUnit || d.Sections[0].Total.A != 124e6 || d.Sections[0].Total.B != 140e6 {
		t.Errorf("absolute diff: %+v", d.Sections[0].Total)
	}
	var sb strings.Builder
	if err := WriteDiffText(&sb, d); err != nil || !strings.Contains(sb.String(), "work known for one side only") {
		t.Errorf("one-sided work not said: %v\n%s", err, sb.String())
	}
}

func TestDiffRejectsKinds(t *testing.T) {
	cpu, _ := cellBreakdowns(t)
	allocs, err := Buckets(resultstest.AllocsProfile(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Diff(cpu, allocs); err == nil || err.Error() != "cannot compare cpu and allocs profiles" {
		t.Errorf("cpu vs allocs: %v", err)
	}
	other := allocs
	other.Values = []ValueType{{"alloc_space", "bytes"}}
	other.Total = other.Total[:1]
	if _, err := Diff(allocs, other); err == nil || !strings.Contains(err.Error(), "no alloc_objects") {
		t.Errorf("missing value type: %v", err)
	}
	if d, err := Diff(other, allocs); err != nil || len(d.Sections) != 1 {
		t.Errorf("A's values only: %v %+v", err, d)
	}
}

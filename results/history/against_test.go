package history

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A run held to the 12 stored runs of storeWithStep: its fast cell 20%
// above the last 10 (the faster half and four before it) is outside
// their range for the better on rec/s and ns/rec; the A/A cell is within
// it; a cell no stored run measured is left out.
func TestAgainst(t *testing.T) {
	ctx := context.Background()
	s, _ := storeWithStep(t, filepath.Join(t.TempDir(), "history.sqlite"))
	f := newFixture("20261209T000000Z-vm", 1.2e6*1.25)
	f.start = time.Date(2026, 12, 9, 0, 0, 0, 0, time.UTC)
	run := readRun(t, f.write(t, t.TempDir()))
	ss, skipped, err := s.Against(ctx, run, AgainstOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Standing{}
	for _, st := range ss {
		got[st.Cell+" "+st.Unit] = st
	}
	fast := got[fastCell+" rec/s"]
	if len(fast.Past) != 10 || !fast.Outside || fast.Worse || fast.Delta() < 0.15 || fast.Delta() > 0.35 {
		t.Errorf("fast rec/s = %+v (delta %+.3f); want 10 past runs, outside for the better", fast, fast.Delta())
	}
	if ns := got[fastCell+" ns/rec"]; !ns.Outside || ns.Worse {
		t.Errorf("fast ns/rec = %+v; want outside for the better", ns)
	}
	if aa := got[aaCell+"/aa=a rec/s"]; aa.Outside || len(aa.Past) != 10 {
		t.Errorf("A/A rec/s = %+v; want within the past range", aa)
	}
	if skipped != 0 || len(ss) != 4 {
		t.Errorf("%d standings, %d skipped; want 4 (fast rec/s, ns/rec, the two A/A sides) and none skipped", len(ss), skipped)
	}
	var b bytes.Buffer
	if err := WriteStandings(&b, ss, skipped, 10); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "Against the last 10 runs of each cell on this host: 2 of 4 figures lie outside") ||
		strings.Count(b.String(), fastCell) != 2 {
		t.Errorf("standings:\n%s", b.String())
	}

	// A run that started before every stored one has no past to be held
	// to.
	f2 := newFixture("20261130T000000Z-vm", 1e6)
	f2.start = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	early := readRun(t, f2.write(t, t.TempDir()))
	early.Dir = filepath.Join(filepath.Dir(early.Dir), "not-stored")
	ss, skipped, err = s.Against(ctx, early, AgainstOptions{})
	if err != nil || len(ss) != 0 || skipped != 4 {
		t.Errorf("an early run: %d standings, %d skipped, %v; want none and 4 skipped", len(ss), skipped, err)
	}
}

func TestStandingsMarkdown(t *testing.T) {
	ss := []Standing{
		{Cell: "path=fast/batch=8192", Unit: "rec/s", Now: 1.5e6, Past: []float64{2e6, 2.1e6, 1.9e6}, Median: 2e6, Min: 1.9e6, Max: 2.1e6,
			Threshold: 0.02, Outside: true, Worse: true},
		{Cell: "path=shallow/batch=8192", Unit: "rec/s", Now: 1e6, Past: []float64{1e6, 1.01e6, 0.99e6}, Median: 1e6, Min: 0.99e6, Max: 1.01e6, Threshold: 0.02},
	}
	md := StandingsMarkdown(ss, 3, 10, "results/history.sqlite")
	for _, want := range []string{
		"## Against the history",
		"1 of 2 figures lie outside the range of those runs by more than the run's A/A floor (or 1%), 1 of them for the worse; 3 figures have fewer than 3 past runs",
		"| path=fast/batch=8192 | rec/s | 1.500M | 2.000M (3 runs) | 1.900M .. 2.100M | -25.0% | worse |",
		"`results/history.sqlite`",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("section lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "path=shallow") {
		t.Errorf("a figure within its range is in the table:\n%s", md)
	}
}

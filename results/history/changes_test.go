package history

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/internal/golden"
	"github.com/fastpathlab/fplab/results/changepoint"
)

// storeWithStep stores 12 runs, a commit each, whose fast cell runs 20%
// faster from the seventh on, with a little scatter between runs; the A/A
// cell does not move beyond it.
func storeWithStep(t *testing.T, url string) (*Store, string) {
	t.Helper()
	ctx := context.Background()
	s := openStore(t, url)
	dir := t.TempDir()
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for i := range 12 {
		rate := 1e6 * (1 + 0.002*float64((i*7)%5-2))
		if i >= 6 {
			rate *= 1.2
		}
		f := newFixture(fmt.Sprintf("20261201T%02d0000Z-vm", i), rate)
		f.commit = fmt.Sprintf("%02d%038d", i, 0)
		f.start = t0.Add(time.Duration(11-i) * time.Hour)
		// Committed in the order 0..11, run out of that order: the series
		// follows the commits.
		if _, err := s.Add(ctx, readRun(t, f.write(t, dir)), WithCommitTime(t0.Add(-time.Duration(12-i)*time.Minute))); err != nil {
			t.Fatal(err)
		}
	}
	runs, err := s.Runs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return s, runs[0].HostKey
}

func TestChangesFindTheStep(t *testing.T) {
	eachEngine(t, func(t *testing.T, url string) {
		ctx := context.Background()
		s, host := storeWithStep(t, url)
		cs, err := s.Changes(ctx, fastCell, "rec/s", host, changepoint.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) != 1 {
			t.Fatalf("changes = %+v, want the one step", cs)
		}
		c := cs[0]
		if c.Before.Run.ID != "20261201T050000Z-vm" || c.After.Run.ID != "20261201T060000Z-vm" ||
			c.Worse() || c.Forward() < 0.18 || c.Forward() > 0.22 || !(c.P < 0.001) || c.Threshold <= 0 {
			t.Errorf("change = %s..%s %+.3f p %g floor %g worse %t; want runs 5..6, about +20%%, better, past the floor",
				c.Before.Run.ID, c.After.Run.ID, c.Forward(), c.P, c.Threshold, c.Worse())
		}
		// ns/rec fell by the same step: a change for the better too.
		all, err := s.AllChanges(ctx, host, changepoint.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var units []string
		for _, c := range all {
			units = append(units, c.Cell+" "+c.Unit)
			if c.Worse() {
				t.Errorf("%s %s: worse, want better", c.Cell, c.Unit)
			}
		}
		if len(all) != 2 || all[0].Unit != "ns/rec" || all[1].Unit != "rec/s" {
			t.Errorf("all changes on %v, want the fast cell's ns/rec and rec/s (the A/A cell moves within its floor)", units)
		}
	})
}

func TestWriteChanges(t *testing.T) {
	ctx := context.Background()
	s, host := storeWithStep(t, filepath.Join(t.TempDir(), "history.sqlite"))
	all, err := s.AllChanges(ctx, host, changepoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteChanges(&b, all); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "changes.txt", b.Bytes())
}

package rung

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/source/consume"
)

// discoverCell is a discover cell of 2 partitions and 4 records: the
// partitions are added once 2 rows are handed over.
func discoverCell(interval time.Duration) *rungargs.Cell {
	c := &rungargs.Cell{Partitions: 2, Records: 4}
	c.Discover = interval
	return c
}

// passOn makes g's waiting Next return a batch of rows at parts.
func passOn(t *testing.T, d *discoverer, g *gatedReader, parts ...int32) {
	t.Helper()
	got := make(chan error, 1)
	go func() {
		_, err := d.Next(context.Background())
		got <- err
	}()
	<-g.entered
	g.release <- &consume.Batch{Partitions: parts, Offsets: make([]int64, len(parts))}
	if err := <-got; err != nil {
		t.Fatal(err)
	}
}

// TestDiscovererGrowsAtHalfAndTimesTheFirstRows: nothing is added before
// half the producer's records are handed over; then grow runs once, the
// read is pending until every added partition's records came, and the
// figures are the added partitions' count, the write and the first rows.
func TestDiscovererGrowsAtHalfAndTimesTheFirstRows(t *testing.T) {
	g := newGated()
	grows := 0
	created := time.Now()
	d := newDiscoverer(context.Background(), g, discoverCell(time.Hour), 1, func(context.Context) (time.Time, time.Time, error) {
		grows++
		return created, created.Add(3 * time.Millisecond), nil
	})
	passOn(t, d, g, 0)
	if d.started {
		t.Fatal("grew after 1 of the 2 rows it waits for")
	}
	passOn(t, d, g, 1)
	<-d.done
	if !d.pending() {
		t.Fatal("not pending before the added partitions' rows came")
	}
	passOn(t, d, g, 2, 0)
	passOn(t, d, g, 3)
	if d.pending() || grows != 1 {
		t.Fatalf("pending %v after every added row, %d grows", d.pending(), grows)
	}
	figs, err := d.figures()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, m := range figs {
		got[m.Unit] = m.Value
	}
	if got[results.UnitDiscoverAdded] != 2 || got[results.UnitDiscoverWriteMs] != 3 ||
		got[results.UnitDiscoverFirstP50] > got[results.UnitDiscoverFirstMax] || got[results.UnitDiscoverFirstP50] <= 0 {
		t.Errorf("figures %v", got)
	}
}

// TestDiscovererFails: a grow that failed ends the read at the next Next,
// and added partitions whose records do not come within the bound end it
// when the bound passes (the Next under way is cut there).
func TestDiscovererFails(t *testing.T) {
	t.Run("grow", func(t *testing.T) {
		g := newGated()
		d := newDiscoverer(context.Background(), g, discoverCell(time.Hour), 1, func(context.Context) (time.Time, time.Time, error) {
			return time.Time{}, time.Time{}, errors.New("discover: no such topic")
		})
		passOn(t, d, g, 0, 1)
		<-d.done
		if _, err := d.Next(context.Background()); err == nil || err.Error() != "discover: no such topic" {
			t.Fatalf("Next after a failed grow: %v", err)
		}
	})
	t.Run("bound", func(t *testing.T) {
		g := newGated()
		d := newDiscoverer(context.Background(), g, discoverCell(10*time.Millisecond), 1, func(context.Context) (time.Time, time.Time, error) {
			now := time.Now()
			return now, now, nil
		})
		passOn(t, d, g, 0, 1)
		<-d.done
		go func() { <-g.entered }()
		_, err := d.Next(context.Background())
		if err == nil || !strings.Contains(err.Error(), "2 of the 2 records written to the added partitions not handed over within") {
			t.Fatalf("Next past the bound: %v", err)
		}
	})
}

package rung_test

import (
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rung/rungtest"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/source/consume"
)

// keyedCell is testCell with keys=on, reading the keyed corpus laid out
// by the cell's shape (see shapedTopic).
func keyedCell(t *testing.T, p consume.Path, shape func(*cell.Cell)) rungargs.Cell {
	t.Helper()
	c := testCell(t)
	c.Path, c.Keys = string(p), true
	shape(&c.Cell)
	c.Topic = shapedTopic(t, c)
	return c
}

// TestKeyedCellsOnEveryPath: keys=on cells pass on every path: a clean
// keyed topic, one with tombstones (which keep their keys) and aborted
// transactions, and the appended parity case (the appended copies keyed);
// the rung verifies every row's key and headers through the row hashes.
// The cell's name says keys=on.
func TestKeyedCellsOnEveryPath(t *testing.T) {
	shapes := []struct {
		name string
		mod  func(*cell.Cell)
	}{
		{"clean", func(*cell.Cell) {}},
		{"txn+nulls", func(c *cell.Cell) { c.Txn, c.Nulls = true, 0.1 }},
		{"appended", func(c *cell.Cell) { c.Case = cell.CaseAppended }},
	}
	for _, sh := range shapes {
		for _, p := range consume.Paths() {
			t.Run(sh.name+"/"+string(p), func(t *testing.T) {
				c := keyedCell(t, p, sh.mod)
				r := rungtest.MustRun(t, c)
				if r.Name != c.Name() || !strings.Contains(r.Name, "/keys=on") {
					t.Fatalf("name %q, want %q with keys=on\n%s", r.Name, c.Name(), r.Out)
				}
				if sh.name == "clean" && r.Iters != records {
					t.Errorf("%d records, want %d", r.Iters, records)
				}
			})
		}
	}
}

// TestKeyedCheckpointedCell: a checkpointing keys=on cell passes with a
// reader killed: the reader processes get keys=on from the supervisor and
// verify the keyed rows too.
func TestKeyedCheckpointedCell(t *testing.T) {
	c := keyedCell(t, consume.PathFast, func(c *cell.Cell) { c.Nulls = 0.01 })
	c.Batch, c.Ckpt, c.Failures, c.CkptDir = 64, time.Hour, 1, t.TempDir()
	got := rungtest.MustRun(t, c).Units()
	if got[results.UnitLostRec] != 0 || got[results.UnitDupRec] != 0 || got["failures"] != 1 {
		t.Errorf("figures %v", got)
	}
}

// TestKeyedCellOnTopicWithoutKeys: a keys=on cell reading a topic whose
// records carry no key or headers fails its verification on every path:
// the key and headers columns are not the corpus's.
func TestKeyedCellOnTopicWithoutKeys(t *testing.T) {
	for _, p := range consume.Paths() {
		t.Run(string(p), func(t *testing.T) {
			c := testCell(t) // the plain corpus's topic
			c.Path, c.Keys = string(p), true
			r, err := rungtest.Run(t, c)
			if err == nil || !strings.Contains(err.Error(), "rows differ from the corpus") {
				t.Fatalf("error %v, want a checksum mismatch of every row", err)
			}
			if r.Out != "" {
				t.Errorf("a failed cell printed %q", r.Out)
			}
		})
	}
}

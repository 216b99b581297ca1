package rung_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rung/rungtest"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/source/consume"
)

// TestTwinCells: decoder=none is the consume-only twin of shallow, fast and
// franz: it drains as its path does, builds no record batch, and is still
// held to the corpus count and the final split; rowwise refuses it.
func TestTwinCells(t *testing.T) {
	for _, p := range []consume.Path{consume.PathShallow, consume.PathFast, consume.PathFranz} {
		t.Run(string(p), func(t *testing.T) {
			c := testCell(t)
			c.Path, c.Decoder = string(p), cell.DecoderNone
			r := rungtest.MustRun(t, c)
			if r.Iters != records || !strings.HasSuffix(r.Name, "/decoder=none") {
				t.Fatalf("%q, %d records\n%s", r.Name, r.Iters, r.Out)
			}
			if !slices.ContainsFunc(r.Metrics, func(m results.Metric) bool { return m.Unit == results.UnitRecPerSec && m.Value > 0 }) {
				t.Errorf("no rec/s in %v", r.Metrics)
			}
			// A twin claiming a corpus other than the topic's fails on its
			// count, though it verifies no row.
			c.Records = records - 1
			_, err := rungtest.Run(t, c)
			if err == nil || !strings.Contains(err.Error(), "read 6000 verified records, the corpus holds 5999") {
				t.Errorf("twin on the wrong corpus count: %v", err)
			}
		})
	}
	c := testCell(t)
	c.Path, c.Decoder = cell.PathRowwise, cell.DecoderNone
	if _, err := rungtest.Run(t, c); err == nil || !strings.Contains(err.Error(), "decoder none") {
		t.Errorf("rowwise with decoder=none: %v", err)
	}
}

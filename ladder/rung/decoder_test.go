package rung_test

import (
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rung/rungtest"
	"github.com/fastpathlab/fplab/source/consume"
)

// TestStockDecoderCells: decoder=stock runs the format's stock library
// route on the shallow and fast paths, verified like the lab's decoder, and
// the other paths refuse it.
func TestStockDecoderCells(t *testing.T) {
	for _, p := range []consume.Path{consume.PathShallow, consume.PathFast} {
		t.Run(string(p), func(t *testing.T) {
			c := testCell(t)
			c.Path, c.Decoder = string(p), cell.DecoderStock
			r := rungtest.MustRun(t, c)
			if r.Iters != records || !strings.HasSuffix(r.Name, "/decoder=stock") {
				t.Fatalf("%q, %d records\n%s", r.Name, r.Iters, r.Out)
			}
			// the candidates it measured, the one it ran first
			if !strings.Contains(r.Out, "stock-pick: ") {
				t.Fatalf("no stock-pick line\n%s", r.Out)
			}
		})
	}
	for _, p := range []consume.Path{consume.PathRowwise, consume.PathFranz} {
		c := testCell(t)
		c.Path, c.Decoder = string(p), cell.DecoderStock
		if _, err := rungtest.Run(t, c); err == nil || !strings.Contains(err.Error(), "decoder stock runs on the shallow and fast paths") {
			t.Errorf("path %s with decoder=stock: %v", p, err)
		}
	}
}

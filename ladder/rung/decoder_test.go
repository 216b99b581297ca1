package rung_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rung"
	"github.com/fastpathlab/fplab/results"
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
			var out bytes.Buffer
			if err := rung.Run(context.Background(), c, rung.Build{}, &out); err != nil {
				t.Fatal(err)
			}
			name, iters, _, _, err := results.ParseBench(out.Bytes())
			if err != nil || iters != records || !strings.HasSuffix(name, "/decoder=stock") {
				t.Fatalf("%v: %q, %d records\n%s", err, name, iters, out.String())
			}
		})
	}
	for _, p := range []consume.Path{consume.PathRowwise, consume.PathFranz} {
		c := testCell(t)
		c.Path, c.Decoder = string(p), cell.DecoderStock
		if err := rung.Run(context.Background(), c, rung.Build{}, io.Discard); err == nil || !strings.Contains(err.Error(), "decoder stock runs on the shallow and fast paths") {
			t.Errorf("path %s with decoder=stock: %v", p, err)
		}
	}
}

package rung_test

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rung"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
)

// TestCeilingCells: path=ceiling counts the corpus from batch headers on
// the plain and a compressed topic, prints the ceiling's units and its
// client, and fails a claim the topic does not hold.
func TestCeilingCells(t *testing.T) {
	for _, codec := range []string{cell.CompressionNone, cell.CompressionZstd} {
		c := testCell(t)
		c.Path, c.Compression = cell.PathCeiling, codec
		if codec != cell.CompressionNone {
			c.Topic += "-" + codec
		}
		var out bytes.Buffer
		if err := rung.Run(context.Background(), c, rung.Build{}, &out); err != nil {
			t.Fatalf("%s: %v", codec, err)
		}
		name, iters, metrics, cfg, err := results.ParseBench(out.Bytes())
		if err != nil || iters != records || name != c.Name() {
			t.Fatalf("%s: %v: %q, %d records\n%s", codec, err, name, iters, out.String())
		}
		for _, u := range []string{results.UnitRecPerSec, results.UnitWireMBPerSec, results.UnitFetches, results.UnitWindowMs} {
			if !slices.ContainsFunc(metrics, func(m results.Metric) bool { return m.Unit == u && m.Value > 0 }) {
				t.Errorf("%s: no %s in %v", codec, u, metrics)
			}
		}
		if !strings.Contains(cfg["client"], "raw Fetch") || !strings.Contains(cfg["ceiling-batches"], codec+":") {
			t.Errorf("%s: config %v", codec, cfg)
		}
	}
	for _, tc := range []struct {
		mod  func(c *rungargs.Cell)
		want string
	}{
		{func(c *rungargs.Cell) { c.Records = records - 1 }, "does not hold the 5999-record corpus"},
		{func(c *rungargs.Cell) { c.Compression = cell.CompressionLZ4 }, "claims compression=lz4"},
		{func(c *rungargs.Cell) { c.Brokers = 1 }, "cluster metadata lists 3"},
	} {
		c := testCell(t)
		c.Path = cell.PathCeiling
		tc.mod(&c)
		if err := rung.Run(context.Background(), c, rung.Build{}, io.Discard); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", c.Name(), err, tc.want)
		}
	}
}

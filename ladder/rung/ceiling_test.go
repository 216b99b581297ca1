package rung_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rung/rungtest"
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
		r := rungtest.MustRun(t, c)
		if r.Iters != records || r.Name != c.Name() {
			t.Fatalf("%s: %q, %d records\n%s", codec, r.Name, r.Iters, r.Out)
		}
		for _, u := range []string{results.UnitRecPerSec, results.UnitWireMBPerSec, results.UnitFetches, results.UnitWindowMs} {
			if !slices.ContainsFunc(r.Metrics, func(m results.Metric) bool { return m.Unit == u && m.Value > 0 }) {
				t.Errorf("%s: no %s in %v", codec, u, r.Metrics)
			}
		}
		if !strings.Contains(r.Config["client"], "raw Fetch") || !strings.Contains(r.Config["ceiling-batches"], codec+":") {
			t.Errorf("%s: config %v", codec, r.Config)
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
		if _, err := rungtest.Run(t, c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", c.Name(), err, tc.want)
		}
	}
}

package rung

import (
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/source/consume"
)

// TestCheckPathHoldsTheDrain holds a fast cell to the drain it names or,
// naming none, to the fast path's default for its read: a reader that
// crossed with any other call fails the cell.
func TestCheckPathHoldsTheDrain(t *testing.T) {
	bulk := consume.Stats{Records: 1000, Crossings: 10, NonEmpty: 10}
	for _, tc := range []struct {
		format, drain, decoder, crossed, fail string
	}{
		{cell.FormatJSON, "", "", consume.DrainCallbackAhead, ""},
		{cell.FormatJSON, "", "", consume.DrainCallbackQueue, "cell defaults to drain=ahead"},
		{cell.FormatJSON, "", cell.DecoderNone, consume.DrainCallbackQueue, ""},
		{cell.FormatJSON, "", cell.DecoderNone, consume.DrainCallbackAhead, "cell defaults to drain=callback"},
		{cell.FormatRaw, "", "", consume.DrainCallbackQueue, ""},
		{cell.FormatRaw, "", "", consume.DrainCallbackAhead, "cell defaults to drain=callback"},
		{cell.FormatJSON, cell.DrainCallback, "", consume.DrainCallbackQueue, ""},
		{cell.FormatJSON, cell.DrainCallback, "", consume.DrainCallbackAhead, "cell names drain=callback"},
		{cell.FormatAvro, cell.DrainBatchQueue, "", consume.DrainCallbackAhead, "cell names drain=batchqueue"},
	} {
		c := &rungargs.Cell{Cell: cell.Cell{Path: cell.PathFast, Format: tc.format, Batch: 64, Drain: tc.drain, Decoder: tc.decoder}}
		want := consume.DecoderLab
		if tc.decoder == cell.DecoderNone {
			want = consume.DecoderNone
		}
		err := checkPath(c, bulk, consume.Assertions{Decoder: want, Drain: tc.crossed})
		switch {
		case tc.fail == "" && err != nil:
			t.Errorf("%s crossing with %q: %v", c.Name(), tc.crossed, err)
		case tc.fail != "" && (err == nil || !strings.Contains(err.Error(), tc.fail)):
			t.Errorf("%s crossing with %q: err %v, want %q", c.Name(), tc.crossed, err, tc.fail)
		}
	}
}

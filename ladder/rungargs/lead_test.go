package rungargs_test

import (
	"testing"
	"time"

	"github.com/fastpathlab/fplab/ladder/rungargs"
)

// TestProducerLead: a second to start, plus the time to generate the
// records at 2M a second.
func TestProducerLead(t *testing.T) {
	for _, c := range []struct {
		records int
		want    time.Duration
	}{{0, time.Second}, {1_000_000, 1500 * time.Millisecond}, {8_000_000, 5 * time.Second}} {
		if got := rungargs.ProducerLead(c.records); got != c.want {
			t.Errorf("ProducerLead(%d) = %v, want %v", c.records, got, c.want)
		}
	}
}

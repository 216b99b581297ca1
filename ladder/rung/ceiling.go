package rung

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/source/ceiling"
)

// ceilingClient names what path=ceiling runs on, for the result's client
// line.
const ceilingClient = "franz-go kmsg raw Fetch (source/ceiling: batch headers only)"

func init() { Register(cell.PathCeiling, runCeiling) }

// runCeiling measures path=ceiling: the broker's serving ceiling on the
// topic (source/ceiling), with the same fetch sizes as the librdkafka
// paths. The cell's claims are checked as a path's are (broker count, a
// topic holding exactly the corpus, the stored codec), and what the read
// counted must agree: the records of its batches equal the corpus count,
// and every batch is stored with the claimed codec.
//
// Units: rec/s and ns/rec over the window, from the first Fetch sent to
// the last response carrying batches (one round trip more than a path's
// first-to-last record, a millisecond on loopback, so a small topic served
// in one response still has a window), wire-MB/s, cpu-ns/rec (the
// process's, start-up included), fetches, startup-ms (open to the first
// Fetch) and window-ms.
func runCeiling(ctx context.Context, c *rungargs.Cell, b Build, w io.Writer) error {
	if err := CheckCountedTopic(ctx, c); err != nil {
		return err
	}
	cpu0 := cpuTime()
	t0 := time.Now()
	r, err := ceiling.Read(ctx, ceiling.Config{
		Bootstrap: c.Bootstrap, Props: c.Props, Topic: c.Topic, Partitions: c.Partitions,
		Timeout: StallTimeout(c.Timeout),
	})
	cpu := cpuTime() - cpu0
	if err != nil {
		return fmt.Errorf("path=ceiling: %w", err)
	}
	if err := checkCeiling(c, r); err != nil {
		return err
	}
	recs, window := float64(r.Records), r.Last.Sub(r.Sent)
	secs := window.Seconds()
	figs := []results.Metric{
		{Value: recs / secs, Unit: results.UnitRecPerSec},
		{Value: float64(r.Bytes) / 1e6 / secs, Unit: results.UnitWireMBPerSec},
		{Value: float64(window.Nanoseconds()) / recs, Unit: results.UnitNsPerRec},
		{Value: float64(cpu.Nanoseconds()) / recs, Unit: results.UnitCPUNsPerRec},
		{Value: float64(r.Fetches), Unit: results.UnitFetches},
		{Value: ms(r.Sent.Sub(t0)), Unit: results.UnitStartupMs},
		{Value: ms(window), Unit: results.UnitWindowMs},
	}
	return WriteResult(w, c, b, ceilingClient, r.Records, figs,
		[2]string{"ceiling-fetch", fmt.Sprintf("fetch.max.bytes=%d max.partition.fetch.bytes=%d fetch.wait.max.ms=%d (librdkafka's defaults, as the paths run)",
			ceiling.DefaultFetchMaxBytes, ceiling.DefaultPartitionMaxBytes, ceiling.DefaultMaxWait.Milliseconds())},
		[2]string{"ceiling-batches", fmt.Sprintf("%d batches, %d control records, %s", r.Batches, r.ControlRecords, codecList(r.Codecs))})
}

// checkCeiling fails a ceiling read that did not count exactly the corpus
// in the claimed codec, or whose window is empty.
func checkCeiling(c *rungargs.Cell, r ceiling.Result) error {
	want := c.Value(cell.Compression)
	switch {
	case r.Records != int64(c.Records):
		return fmt.Errorf("path=ceiling counted %d records in the topic's batches, the corpus has %d", r.Records, c.Records)
	case r.ControlRecords != 0:
		return fmt.Errorf("path=ceiling counted %d control records on a topic written without transactions", r.ControlRecords)
	case len(r.Codecs) != 1 || r.Codecs[want] != r.Batches:
		return fmt.Errorf("cell claims compression=%s but the batches served are %s", want, codecList(r.Codecs))
	case !r.Last.After(r.Sent):
		return fmt.Errorf("path=ceiling: empty measured window (%d records)", r.Records)
	}
	return nil
}

// codecList renders batch counts by codec, "lz4:120,none:3".
func codecList(m map[string]int64) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s:%d", k, m[k]))
	}
	if len(parts) == 0 {
		return "no batches"
	}
	return strings.Join(parts, ",")
}

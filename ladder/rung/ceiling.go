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
	if err := checkCountedTopic(ctx, c); err != nil {
		return err
	}
	cpu0 := cpuTime()
	t0 := time.Now()
	r, err := ceiling.Read(ctx, ceiling.Config{
		Bootstrap: c.Bootstrap, Props: c.Props, Topic: c.Topic, Partitions: c.Partitions,
		Timeout: stallTimeout(c.Timeout),
	})
	cpu := cpuTime() - cpu0
	if err != nil {
		return fmt.Errorf("rung: %w", err)
	}
	if err := checkCeiling(c, r); err != nil {
		return err
	}
	recs, window := float64(r.Records), r.Last.Sub(r.Sent)
	secs := window.Seconds()
	figs := []metric{
		{recs / secs, results.UnitRecPerSec},
		{float64(r.Bytes) / 1e6 / secs, results.UnitWireMBPerSec},
		{float64(window.Nanoseconds()) / recs, results.UnitNsPerRec},
		{float64(cpu.Nanoseconds()) / recs, results.UnitCPUNsPerRec},
		{float64(r.Fetches), results.UnitFetches},
		{ms(r.Sent.Sub(t0)), results.UnitStartupMs},
		{ms(window), results.UnitWindowMs},
	}
	return writeResult(w, c, b, ceilingClient, r.Records, figs,
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
		return fmt.Errorf("rung: path=ceiling counted %d records in the topic's batches, the corpus has %d", r.Records, c.Records)
	case r.ControlRecords != 0:
		return fmt.Errorf("rung: path=ceiling counted %d control records on a topic written without transactions", r.ControlRecords)
	case len(r.Codecs) != 1 || r.Codecs[want] != r.Batches:
		return fmt.Errorf("rung: cell claims compression=%s but the batches served are %s", want, codecList(r.Codecs))
	case !r.Last.After(r.Sent):
		return fmt.Errorf("rung: path=ceiling: empty measured window (%d records)", r.Records)
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

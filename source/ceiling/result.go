package ceiling

import "time"

// Result is what one Read fetched. Counts cover the complete record batches
// in [Start, Stop) of every partition, read from their headers only.
type Result struct {
	// Records is the records of data batches, aborted transactions'
	// included: nothing is filtered, as nothing is decoded.
	Records int64
	// ControlRecords is the records of control batches (transaction
	// markers).
	ControlRecords int64
	// Bytes is the record batches' wire size (12+batchLength each), before
	// any decompression.
	Bytes int64
	// Batches counts record batches, control batches included.
	Batches int64
	// Fetches counts the Fetch requests sent.
	Fetches int64
	// Codecs counts batches by compression codec: none, gzip, snappy, lz4,
	// zstd. A codec no batch used is absent. Control batches count as
	// none; the counts add up to Batches.
	Codecs map[string]int64
	// Start and Stop are the range per partition as captured at open: the
	// log start and the high watermark.
	Start, Stop map[int32]int64
	// Sent is when the first Fetch request was sent (zero if none was).
	// First and Last are when the first and the last Fetch response that
	// carried batches in range arrived; both are zero when there was
	// nothing to read. First..Last is the window as the consume paths
	// define theirs (first to last record); Sent..Last adds the first
	// round trip and is never empty when anything was read (a small topic
	// may come in one response).
	Sent, First, Last time.Time
}

// add counts one partition's tally from a response that arrived at.
func (r *Result) add(t tally, at time.Time) {
	if t.batches == 0 {
		return
	}
	r.Records += t.records
	r.ControlRecords += t.control
	r.Bytes += t.bytes
	r.Batches += t.batches
	for c, n := range t.codecs {
		if n > 0 {
			r.Codecs[codecNames[c]] += n
		}
	}
	if r.First.IsZero() {
		r.First = at
	}
	if at.After(r.Last) {
		r.Last = at
	}
}

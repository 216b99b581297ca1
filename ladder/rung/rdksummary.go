package rung

import (
	"encoding/json"
	"fmt"

	"github.com/fastpathlab/fplab/results"
)

// rdkDoc is the part of a librdkafka statistics document (STATISTICS.md)
// the summary reads: per broker its round trips and its fetch responses,
// per partition the messages fetched and waiting for the application.
type rdkDoc struct {
	RxMsgs  int64 `json:"rxmsgs"` // messages received from the brokers
	Brokers map[string]struct {
		NodeID  int   `json:"nodeid"`
		RxBytes int64 `json:"rxbytes"`
		Rtt     struct {
			Avg int64 `json:"avg"` // microseconds, over the last interval
			Cnt int64 `json:"cnt"`
		} `json:"rtt"`
		Req map[string]int64 `json:"req"` // requests sent, by type
	} `json:"brokers"`
	Topics map[string]struct {
		Partitions map[string]struct {
			Partition int   `json:"partition"`
			FetchqCnt int64 `json:"fetchq_cnt"`
		} `json:"partitions"`
	} `json:"topics"`
}

// rdkSummary folds statistics documents, one at a time, into the figures
// a bounded rdkstats cell reports: where the records wait, and how much
// each fetch brought.
type rdkSummary struct {
	docs   int
	fetchq int64 // sum over documents of the messages queued for the reader
	rttSum int64 // sum over documents and brokers of the interval's mean rtt (µs)
	rttN   int64
	// from the last document (cumulative counters): Fetch requests sent to
	// all brokers, the messages and bytes they brought
	fetches int64
	rxMsgs  int64
	rxBytes int64
}

// add folds one document; one that is not a statistics document is an
// error (the caller counts it as not JSON).
func (s *rdkSummary) add(doc []byte) error {
	var d rdkDoc
	if err := json.Unmarshal(doc, &d); err != nil {
		return fmt.Errorf("librdkafka statistics: %w", err)
	}
	s.docs++
	for _, t := range d.Topics {
		for _, p := range t.Partitions {
			if p.Partition >= 0 { // -1 is the unassigned-partition bucket
				s.fetchq += p.FetchqCnt
			}
		}
	}
	s.fetches, s.rxBytes, s.rxMsgs = 0, 0, d.RxMsgs
	for _, b := range d.Brokers {
		if b.NodeID < 0 { // the bootstrap and coordinator connections
			continue
		}
		if b.Rtt.Cnt > 0 {
			s.rttSum += b.Rtt.Avg
			s.rttN++
		}
		s.fetches += b.Req["Fetch"]
		s.rxBytes += b.RxBytes
	}
	return nil
}

// metrics are the summary's figures; none without a document, and the
// per-fetch ones only once a fetch was made. The per-fetch figures come
// from one document's counters, so they hold up to its sample.
func (s *rdkSummary) metrics() []results.Metric {
	if s.docs == 0 {
		return nil
	}
	out := []results.Metric{
		{Value: float64(s.docs), Unit: results.UnitRdkStatsSamples},
		{Value: float64(s.fetchq) / float64(s.docs), Unit: results.UnitRdkFetchqMsgs},
	}
	if s.rttN > 0 {
		out = append(out, results.Metric{Value: float64(s.rttSum) / float64(s.rttN) / 1e3, Unit: results.UnitRdkRttMs})
	}
	if s.fetches > 0 {
		out = append(out,
			results.Metric{Value: float64(s.rxMsgs) / float64(s.fetches), Unit: results.UnitRdkRecPerFetch},
			results.Metric{Value: float64(s.rxBytes) / float64(s.fetches) / 1024, Unit: results.UnitRdkKBPerFetch})
	}
	return out
}

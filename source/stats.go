package source

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/source/internal/drain"
)

// librdkafka's own statistics (Config.Stats, Config.OnStats), sampled on
// the librdkafka paths. A document takes one of two routes to the
// statsSink, by how the path serves its consumer queue:
//
//   - rowwise, shallow: confluent-kafka-go forwards librdkafka's main
//     queue to the consumer queue, so Poll returns the document as a
//     *kafka.Stats, on the reader's goroutine, once per interval; the
//     reader hands a copy to the sink (a channel send that never waits)
//     and reads on.
//   - fast: the crossing (rd_kafka_consume_callback_queue) cannot take a
//     statistics event (drain.Main), so the main queue is taken off the
//     consumer queue at open and a goroutine of its own (mainPoller)
//     waits on it: the crossing never sees a document. The client errors
//     that arrive there too are passed to the reader, which looks at them
//     once per crossing, as it looks at the crossing's own errors.
//
// With Stats zero none of it exists: no interval is set, so librdkafka
// emits nothing, no goroutine runs and the read loops do what they did.

// statsBacklog is how many documents may wait while OnStats is busy; any
// more are dropped. At the shortest interval (10 ms) it is 40 ms of
// samples, at a second 4 s: a callback slower than that loses samples,
// the read never waits for it.
const statsBacklog = 4

// validateStats checks Stats and OnStats against the rest of the Config.
func (c *Config) validateStats() error {
	switch {
	case c.Stats == 0 && c.OnStats == nil:
		return nil
	case c.Stats == 0:
		return fmt.Errorf("OnStats needs stats > 0, the interval at which librdkafka emits its statistics")
	case c.Path == consume.PathFranz:
		return fmt.Errorf("stats are librdkafka's statistics: they run on the rowwise, shallow and fast paths, not franz")
	case c.Stats < limits.minStats || c.Stats > limits.maxStats:
		return fmt.Errorf("stats must be %v..%v, got %v", limits.minStats, limits.maxStats, c.Stats)
	case c.Stats%time.Millisecond != 0:
		return fmt.Errorf("stats must be whole milliseconds (statistics.interval.ms), got %v", c.Stats)
	case c.OnStats == nil:
		return fmt.Errorf("stats needs OnStats to take the documents, got none")
	}
	return nil
}

// statsSink hands statistics documents to OnStats on a goroutine of its
// own, so a slow callback holds up neither the read nor the main-queue
// poller: offer never waits, and drops a document when statsBacklog are
// waiting already.
type statsSink struct {
	on        func([]byte)
	docs      chan []byte
	done      chan struct{}
	delivered atomic.Int64
	dropped   atomic.Int64
}

func newStatsSink(on func([]byte)) *statsSink {
	s := &statsSink{on: on, docs: make(chan []byte, statsBacklog), done: make(chan struct{})}
	go s.run()
	return s
}

func (s *statsSink) run() {
	defer close(s.done)
	for doc := range s.docs {
		s.on(doc)
		s.delivered.Add(1)
	}
}

// offer queues doc for OnStats, or drops it if the backlog is full. It is
// not called after close.
func (s *statsSink) offer(doc []byte) {
	select {
	case s.docs <- doc:
	default:
		s.dropped.Add(1)
	}
}

// close hands over the documents still waiting and returns once OnStats
// has returned for the last of them.
func (s *statsSink) close() {
	close(s.docs)
	<-s.done
}

// count adds the sink's counts to st; a nil sink (Stats off) adds none.
func (s *statsSink) count(st consume.Stats) consume.Stats {
	if s != nil {
		st.StatsSamples, st.StatsDropped = s.delivered.Load(), s.dropped.Load()
	}
	return st
}

// mainPoller serves the fast path's main queue (drain.Main) on a
// goroutine of its own: statistics documents go to the sink, client
// errors to the reader (check). It waits on the queue, so it wakes when
// an event arrives (once per Stats interval, and at each client error) or
// once a second, and Close wakes it at once.
type mainPoller struct {
	m    *drain.Main
	sink *statsSink
	stop atomic.Bool
	done chan struct{}
	// the client errors seen and not yet checked: transient ones counted,
	// the first other one kept
	transient atomic.Int64
	fatal     atomic.Pointer[drain.Err]
	// tolerated says which errors are counted, not kept (rdkConsumer's)
	tolerated func(kafka.ErrorCode) bool
}

func newMainPoller(m *drain.Main, sink *statsSink, tolerated func(kafka.ErrorCode) bool) *mainPoller {
	p := &mainPoller{m: m, sink: sink, done: make(chan struct{}), tolerated: tolerated}
	go p.run()
	return p
}

func (p *mainPoller) run() {
	defer close(p.done)
	for !p.stop.Load() {
		ev, ok := p.m.Poll(1000)
		switch {
		case !ok:
		case ev.Stats != nil:
			p.sink.offer(ev.Stats)
		case ev.Err != nil && p.tolerated(ev.Err.Code):
			p.transient.Add(1)
		case ev.Err != nil:
			p.fatal.CompareAndSwap(nil, ev.Err)
		}
	}
}

// check is the fast reader's look at the client errors the poller saw,
// once per crossing: the transient ones are added to st's
// ConsumerErrors, any other ends the read as a drained one would.
func (p *mainPoller) check(st *consume.Stats) error {
	if e := p.fatal.Load(); e != nil {
		return rdkError(consume.PathFast, e.Code, e.Partition, e.Offset, errOf(*e))
	}
	if p.transient.Load() != 0 {
		st.ConsumerErrors += p.transient.Swap(0)
	}
	return nil
}

// close stops the poller and gives the main queue back to the consumer
// queue (drain.Main.Close); the sink stays open.
func (p *mainPoller) close() {
	p.stop.Store(true)
	p.m.Wake()
	<-p.done
	p.m.Close()
}

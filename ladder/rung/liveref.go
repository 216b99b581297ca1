package rung

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
)

// A live cell of a path whose reader is another process (the JVM
// references, package ladder/rung/jvmref) is measured with the pieces a Go
// path's live cell uses (live.go): the same fresh topic, producer process,
// schedule and T0, the same liveRecorder for latency and lag, the same
// producer check and live files. What differs is where the hand-overs come
// from: the reader reports them as offset ranges (LiveRange), each with its
// time, and at the end a count and a chained checksum of each partition's
// values (PartitionSum), which LiveRead checks against the corpus, since
// the lab cannot look into the reader's rows.

// LiveRange is one hand-over of an outside reader: partition Partition's
// offsets First..Last (both included) handed to the reader's user at once.
type LiveRange struct {
	Partition   int32
	First, Last int64
}

// PartitionSum is what a reader read of one partition: the record count
// and SumValue chained over the values in offset order from 0.
type PartitionSum struct {
	Count int64
	CRC   uint32
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// SumValue chains value v into a partition's checksum crc: CRC-32C
// (Castagnoli) over the value's length as 4 big-endian bytes (0xFFFFFFFF
// for a null value), then its bytes. The reference programs compute the
// same (java/src/main/java/fplab/Live.java), so a value lost, repeated,
// reordered or changed between the producer and the reader's user shows.
func SumValue(crc uint32, v []byte) uint32 {
	var n [4]byte
	l := uint32(len(v))
	if v == nil {
		l = 0xFFFFFFFF
	}
	binary.BigEndian.PutUint32(n[:], l)
	crc = crc32.Update(crc, castagnoli, n[:])
	return crc32.Update(crc, castagnoli, v)
}

// LiveRead is one live read of a cell by an outside reader: OpenLiveRead
// makes its fresh topic, StartProducer starts the producer once the
// reader is ready, HandOver takes each of the reader's hand-overs, Finish
// checks the read's end, then Figures and WriteLive report it as a Go
// path's live cell is reported. Close deletes the topic and stops the
// producer, whatever happened; call it once.
type LiveRead struct {
	c      rungargs.Cell // the cell, its topic the fresh one
	cl     clusters.Cluster
	check  *liveCheck
	sums   chan error // the expected sums computed, or why not
	rec    *liveRecorder
	prod   *producerProc
	report producerReport
	// compressed is the share of records in batches of the cell's codec
	compressed float64
}

// OpenLiveRead checks the cluster's broker count, makes the cell's fresh
// topic and, while the reader starts, computes what each partition must
// hold from the corpus (the producer's records: record i at partition
// i % P, offset i / P).
func OpenLiveRead(ctx context.Context, c *rungargs.Cell) (*LiveRead, error) {
	if !c.Live() || c.MaxRate() {
		return nil, fmt.Errorf("live read of a mode=%s cell (want %s)", c.Mode, cell.ModeLive)
	}
	cl, err := checkBrokers(ctx, c)
	if err != nil {
		return nil, err
	}
	l := &LiveRead{c: *c, cl: cl, sums: make(chan error, 1)}
	l.c.Topic = c.Topic + "-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	if err := clusters.CreateTopic(ctx, cl, l.c.Topic, c.Partitions); err != nil {
		return nil, fmt.Errorf("live: %w", err)
	}
	l.check = newLiveCheck(c.Partitions, c.Records)
	go func() { l.sums <- l.check.expect(&l.c) }()
	return l, nil
}

// Topic is the fresh topic the reader reads.
func (l *LiveRead) Topic() string { return l.c.Topic }

// StartProducer picks T0 (now and the producer's lead) and starts the
// producer process; the reader must be ready to receive by then.
func (l *LiveRead) StartProducer(ctx context.Context) error {
	if l.prod != nil {
		return fmt.Errorf("live: the producer was started twice")
	}
	if err := <-l.sums; err != nil {
		return err
	}
	c := &l.c
	t0 := time.Now().Add(rungargs.ProducerLead(c.Records))
	prod, err := startProducer(ctx, c, t0)
	if err != nil {
		return err
	}
	l.prod = prod
	l.rec = newLiveRecorder(t0, c.Rate, c.Records, rungargs.LiveRecords(c.Rate, c.Warmup), c.Partitions, c.Warmup)
	return nil
}

// HandOver takes one hand-over at `at` of the ranges rs: each must follow
// its partition's previous range without a gap or a repeat (from offset 0),
// or the read fails naming the first missing or repeated offset.
func (l *LiveRead) HandOver(at time.Time, rs []LiveRange) error {
	if l.rec == nil {
		return fmt.Errorf("live: a hand-over before the producer started")
	}
	if err := l.check.ranges(rs); err != nil {
		return err
	}
	l.rec.ranges(at, rs)
	return nil
}

// Handed is how many records were handed over so far.
func (l *LiveRead) Handed() int64 {
	if l.rec == nil {
		return 0
	}
	return l.rec.handed
}

// Finish checks the read once the reader ended with sums, one per
// partition: the producer wrote the cell's records at its rate
// (checkProducer), every partition was handed over to its end, the
// measured window holds its records, each partition's count and checksum
// are the corpus's, and the stored codecs are the cell's.
func (l *LiveRead) Finish(ctx context.Context, sums []PartitionSum) error {
	if l.prod == nil {
		return fmt.Errorf("live: the producer never started")
	}
	var err error
	if l.report, err = l.prod.wait(ctx); err != nil {
		return err
	}
	if err := checkProducer(&l.c, l.report); err != nil {
		return err
	}
	if err := l.check.end(); err != nil {
		return err
	}
	if err := l.rec.complete(); err != nil {
		return err
	}
	if err := l.check.sums(sums); err != nil {
		return err
	}
	l.compressed, err = checkLiveCompression(ctx, l.cl, &l.c, l.report)
	return err
}

// Measured is the count of the measured window's records: the result's
// iteration count.
func (l *LiveRead) Measured() int64 { return l.rec.measured }

// Figures are a live cell's figures (as runLive reports a Go path's), with
// the reader process's CPU from the producer's start to the last hand-over
// and its peak resident set in KiB.
func (l *LiveRead) Figures(cpu time.Duration, maxRSSKiB int64) []results.Metric {
	return liveFigures(&l.c, l.rec, cpu, l.rec.handed, maxRSSKiB, l.report, l.compressed)
}

// WriteLive keeps the read's latency histogram and lag series in the
// cell's live directory.
func (l *LiveRead) WriteLive() error { return writeLive(&l.c, l.c.Rate, l.rec) }

// FileConfig are the result's file-config lines of a live read: its topic
// and producer.
func (l *LiveRead) FileConfig() [][2]string {
	return [][2]string{{"live-topic", l.c.Topic}, {"producer", producerName}}
}

// Close stops the producer if it still runs and deletes the topic.
func (l *LiveRead) Close() {
	if l.prod != nil {
		l.prod.stop()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := clusters.DeleteTopic(ctx, l.cl, l.c.Topic); err != nil {
		fmt.Fprintf(os.Stderr, "live: topic %s left behind: %v\n", l.c.Topic, err)
	}
}

// liveFigures are a live cell's figures: the recorder's, then the reader
// process's CPU per record read (of records) and peak RSS, the producer's rate and
// lateness, and the compressed share of a compression cell.
func liveFigures(c *rungargs.Cell, rec *liveRecorder, cpu time.Duration, records, maxRSSKiB int64, prod producerReport, compressed float64) []results.Metric {
	figs := append(rec.metrics(),
		results.Metric{Value: float64(cpu.Nanoseconds()) / float64(records), Unit: results.UnitCPUNsPerRec},
		results.Metric{Value: float64(maxRSSKiB) / 1024, Unit: results.UnitPeakRSSMB},
		results.Metric{Value: prod.Achieved, Unit: results.UnitProduceRecPerSec},
		results.Metric{Value: ms(time.Duration(prod.MaxBehind)), Unit: results.UnitProducerBehindMs},
	)
	if c.Value(cell.Compression) != cell.CompressionNone {
		figs = append(figs, results.Metric{Value: 100 * compressed, Unit: results.UnitCompressedPct})
	}
	return figs
}

// liveCheck checks an outside reader's hand-overs: offsets gapless per
// partition from 0 to the partition's share of the records, and at the end
// each partition's count and checksum against the corpus's.
type liveCheck struct {
	partitions int
	next       []int64 // per partition: the next offset due
	count      []int64 // per partition: the records the producer writes there
	want       []PartitionSum
}

func newLiveCheck(partitions, records int) *liveCheck {
	k := &liveCheck{partitions: partitions, next: make([]int64, partitions), count: make([]int64, partitions)}
	for p := range k.count {
		k.count[p] = int64(records / partitions)
		if p < records%partitions {
			k.count[p]++
		}
	}
	return k
}

// expect computes the expected sums from c's corpus, the producer's
// (runProducer), a goroutine per core over the partitions.
func (k *liveCheck) expect(c *rungargs.Cell) error {
	corpus, _, err := cellCorpus(c)
	if err != nil {
		return err
	}
	want := make([]PartitionSum, k.partitions)
	var wg sync.WaitGroup
	g := min(runtime.GOMAXPROCS(0), k.partitions)
	for w := range g {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for p := w; p < k.partitions; p += g {
				s := &want[p]
				for i := p; i < c.Records; i += k.partitions {
					buf = corpus.Message(buf[:0], i)
					s.CRC = SumValue(s.CRC, buf)
					s.Count++
				}
			}
		}()
	}
	wg.Wait()
	k.want = want
	return nil
}

// ranges checks one hand-over's ranges and advances their partitions.
func (k *liveCheck) ranges(rs []LiveRange) error {
	for _, r := range rs {
		p := int(r.Partition)
		switch {
		case p < 0 || p >= k.partitions:
			return fmt.Errorf("live: a range of partition %d, the topic has %d", p, k.partitions)
		case r.First > r.Last:
			return fmt.Errorf("live: partition %d: range %d..%d ends before it starts", p, r.First, r.Last)
		case r.First > k.next[p]:
			return fmt.Errorf("live: partition %d: offset %d missing (the reader handed over %d..%d next)", p, k.next[p], r.First, r.Last)
		case r.First < k.next[p]:
			return fmt.Errorf("live: partition %d: offset %d handed over twice", p, r.First)
		case r.Last >= k.count[p]:
			return fmt.Errorf("live: partition %d: offset %d handed over, past the %d records the producer writes there", p, r.Last, k.count[p])
		}
		k.next[p] = r.Last + 1
	}
	return nil
}

// end fails unless every partition was handed over to its end.
func (k *liveCheck) end() error {
	for p, n := range k.next {
		if n != k.count[p] {
			return fmt.Errorf("live: partition %d: offset %d missing (the reader ended there; the producer wrote %d records there)", p, n, k.count[p])
		}
	}
	return nil
}

// sums fails unless got holds each partition's count and checksum.
func (k *liveCheck) sums(got []PartitionSum) error {
	if k.want == nil {
		return fmt.Errorf("live: the corpus's checksums were not computed")
	}
	if len(got) != k.partitions {
		return fmt.Errorf("live: the reader reported %d partitions' checksums, the topic has %d", len(got), k.partitions)
	}
	for p, g := range got {
		w := k.want[p]
		switch {
		case g.Count != w.Count:
			return fmt.Errorf("live: partition %d: the reader counted %d records, the producer wrote %d", p, g.Count, w.Count)
		case g.CRC != w.CRC:
			return fmt.Errorf("live: partition %d: the checksum of the %d values read is %08x, the corpus's is %08x (a value changed, or came in another order)", p, g.Count, g.CRC, w.CRC)
		}
	}
	return nil
}

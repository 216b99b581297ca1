package ladder

import (
	"bufio"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/workloads"
)

// An embedded cluster (kfake) keeps every record of every corpus of a run in
// its broker process's memory until the run ends, so a spec whose corpora
// together outgrow the host is refused before anything starts, with the
// figure, instead of dying part-way.
//
// The estimate per record was measured as the broker's peak RSS (VmHWM)
// after loading 2M records (fplab broker + fplab load, 6 partitions,
// 2026-12-04, this lab's 2-core VM): bid json (144 B encoded) 274 B, bid
// avro (58 B) 174 B, on 3 brokers json 272 B; after the load, RSS was 277-292
// B for json and raw, 147 B for avro, 574 B for bid-wide json (289 B).
// brokerBytes = 2 x encoded + 64 bounds every one of them from above.
const (
	brokerBytesPerEncodedByte = 2
	brokerBytesPerRecord      = 64
	// hostMemShare is the share of the host's memory the embedded brokers
	// may take: the measured children (8 B of expected hash per record,
	// Arrow batches), the JVM references and the system need the rest.
	hostMemShareNum, hostMemShareDen = 7, 10
	// sizeSample is how many records of a corpus are encoded to estimate
	// its mean record size (spread evenly over the corpus).
	sizeSample = 2048
	// producerBytesPerRecord is what a live cell's producer process holds
	// per record besides its encoded value: the client's record struct
	// (kgo.Record, its headers and promise). An estimate, not yet
	// measured: measure the producer's peak RSS at a known rate and
	// duration and replace it.
	producerBytesPerRecord = 200
)

// corpusLoad is one corpus an embedded cluster will hold.
type corpusLoad struct {
	group   group
	records int
	bytes   int64 // estimated broker memory
}

// embeddedLoads estimates the broker memory of every corpus the spec's
// cells make an embedded cluster hold: one per corpus group (format, topic
// shape, cluster shape; each cluster shape is a broker process of its own).
// Live cells hold no corpus (liveLoadOf).
func embeddedLoads(s *Spec, cells []cell.Cell) ([]corpusLoad, error) {
	schema, err := workloads.SchemaByName(s.Schema)
	if err != nil {
		return nil, err
	}
	seen := map[group]bool{}
	var out []corpusLoad
	for _, c := range cells {
		g := groupOf(c)
		if !hasCorpus(c) || c.Value(cell.Cluster) != cell.ClusterEmbedded || seen[g] {
			continue
		}
		seen[g] = true
		mean, err := groupMeanEncoded(s, schema, g)
		if err != nil {
			return nil, err
		}
		out = append(out, corpusLoad{group: g, records: s.Records,
			bytes: int64(s.Records) * int64(brokerBytesPerEncodedByte*mean+brokerBytesPerRecord)})
	}
	return out, nil
}

// liveLoad is the memory one live cell takes while it runs: its producer
// process holds every record it will write, and an embedded broker every
// record written. A maxrate cell is counted at its largest trial
// (Spec.topRate), which it runs alone like every other trial.
type liveLoad struct {
	cell    cell.Cell
	records int
	bytes   int64
}

// largestLiveLoad is the live cell of cells that takes the most memory
// while it runs (zero when there is none). Live cells run one at a time
// and delete their topic, so only the largest adds to the corpora.
func largestLiveLoad(s *Spec, cells []cell.Cell) (liveLoad, error) {
	schema, err := workloads.SchemaByName(s.Schema)
	if err != nil {
		return liveLoad{}, err
	}
	var most liveLoad
	for _, c := range cells {
		if !c.Live() {
			continue
		}
		l, err := liveLoadOf(s, schema, c)
		if err != nil {
			return liveLoad{}, err
		}
		if l.bytes > most.bytes {
			most = l
		}
	}
	return most, nil
}

// liveLoadOf estimates live cell c's memory at its top rate (a maxrate
// cell's max_rate.to): records x (the producer's encoded size +
// producerBytesPerRecord), plus an embedded broker's 2 x encoded +
// brokerBytesPerRecord.
func liveLoadOf(s *Spec, schema *workloads.Schema, c cell.Cell) (liveLoad, error) {
	n := s.topRecords(c)
	mean, err := meanEncodedOf(s, schema, c.Format, topicParts(c), n)
	if err != nil {
		return liveLoad{}, err
	}
	per := int64(mean + producerBytesPerRecord)
	if c.Value(cell.Cluster) == cell.ClusterEmbedded {
		per += int64(brokerBytesPerEncodedByte*mean + brokerBytesPerRecord)
	}
	return liveLoad{cell: c, records: n, bytes: int64(n) * per}, nil
}

// groupMeanEncoded is the mean encoded size of the records of g's corpus.
func groupMeanEncoded(s *Spec, schema *workloads.Schema, g group) (int, error) {
	return meanEncodedOf(s, schema, g.format, g.topic, s.Records)
}

// meanEncodedOf is the mean encoded size of the n records of a corpus in
// format with topic shape topic (topicParts).
func meanEncodedOf(s *Spec, schema *workloads.Schema, format string, topic cell.Cell, n int) (int, error) {
	codec, err := workloads.NewCodec(workloads.Format(format), schema)
	if err != nil {
		return 0, err
	}
	corpus := workloads.NewCorpus(schema, codec, s.Seed, n, workloads.CorpusOptsOf(topic)...)
	return meanEncoded(corpus, n), nil
}

// meanEncoded is the mean encoded size of a corpus's records, from a sample
// spread evenly over its n records.
func meanEncoded(c *workloads.Corpus, n int) int {
	step := max(1, n/sizeSample)
	var buf []byte
	total, count := 0, 0
	for i := 0; i < n; i += step {
		buf = c.Message(buf[:0], i)
		total += len(buf)
		count++
	}
	return (total + count - 1) / count
}

// checkHostMemory refuses a run whose embedded brokers would hold more
// than hostMemShare of memTotal bytes: every bounded corpus, plus the
// largest live cell's records while it runs (in its producer and, on an
// embedded cluster, in the broker). The error names the live cell when the
// corpora alone would fit.
func checkHostMemory(s *Spec, cells []cell.Cell, memTotal int64) error {
	loads, err := embeddedLoads(s, cells)
	if err != nil {
		return err
	}
	live, err := largestLiveLoad(s, cells)
	if err != nil || memTotal <= 0 {
		return err
	}
	var corpora int64
	for _, l := range loads {
		corpora += l.bytes
	}
	limit := memTotal / hostMemShareDen * hostMemShareNum
	share := 100 * hostMemShareNum / hostMemShareDen
	switch {
	case corpora > limit:
		return fieldErrorf("records", "the embedded brokers would hold about %s (%d corpora of %d records, about %d bytes a record in the broker: 2 x the encoded size + %d, measured), more than %d%% of this host's %s; lower records or split the spec",
			gib(corpora), len(loads), s.Records, corpora/int64(len(loads))/int64(s.Records), brokerBytesPerRecord, share, gib(memTotal))
	case corpora+live.bytes > limit:
		where := "its producer"
		if live.cell.Value(cell.Cluster) == cell.ClusterEmbedded {
			where = "its producer and the embedded broker"
		}
		field, what, lower := cell.Rate, "live cell "+live.cell.Name(), "rate"
		if live.cell.MaxRate() {
			field, what, lower = "max_rate.to", "maxrate cell "+live.cell.Name()+" (its largest trial)", "max_rate.to"
		}
		return fieldErrorf(field, "%s would hold about %s while it runs (%d records in %s, about %d bytes a record: the encoded size + %d in the producer, an estimate, and 2 x the encoded size + %d in an embedded broker), on top of %s of corpora: more than %d%% of this host's %s; lower %s or duration",
			what, gib(live.bytes), live.records, where, live.bytes/int64(live.records), producerBytesPerRecord, brokerBytesPerRecord, gib(corpora), share, gib(memTotal), lower)
	}
	return nil
}

// gib writes a byte count in GiB, or in MiB below one GiB.
func gib(b int64) string {
	if b < 1<<30 {
		return strconv.FormatFloat(float64(b)/(1<<20), 'f', 1, 64) + " MiB"
	}
	return strconv.FormatFloat(float64(b)/(1<<30), 'f', 1, 64) + " GiB"
}

// hostMemTotal is the host's memory (MemTotal of /proc/meminfo) in bytes,
// or 0 when it cannot be read (the check is then skipped, not guessed).
func hostMemTotal() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	return memTotalOf(f)
}

func memTotalOf(r io.Reader) int64 {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			f := strings.Fields(rest)
			if len(f) == 2 && f[1] == "kB" {
				if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return kb << 10
				}
			}
		}
	}
	return 0
}

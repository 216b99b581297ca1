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
func embeddedLoads(s *Spec, cells []cell.Cell) ([]corpusLoad, error) {
	schema, err := workloads.SchemaByName(s.Schema)
	if err != nil {
		return nil, err
	}
	seen := map[group]bool{}
	var out []corpusLoad
	for _, c := range cells {
		g := groupOf(c)
		if c.Value(cell.Cluster) != cell.ClusterEmbedded || seen[g] {
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

// groupMeanEncoded is the mean encoded size of the records of g's corpus.
func groupMeanEncoded(s *Spec, schema *workloads.Schema, g group) (int, error) {
	codec, err := workloads.NewCodec(workloads.Format(g.format), schema)
	if err != nil {
		return 0, err
	}
	corpus := workloads.NewCorpus(schema, codec, s.Seed, s.Records, workloads.CorpusOptsOf(g.topic)...)
	return meanEncoded(corpus, s.Records), nil
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
// than hostMemShare of memTotal bytes.
func checkHostMemory(s *Spec, cells []cell.Cell, memTotal int64) error {
	loads, err := embeddedLoads(s, cells)
	if err != nil || len(loads) == 0 || memTotal <= 0 {
		return err
	}
	var total int64
	for _, l := range loads {
		total += l.bytes
	}
	if limit := memTotal / hostMemShareDen * hostMemShareNum; total > limit {
		return fieldErrorf("records", "the embedded brokers would hold about %s (%d corpora of %d records, about %d bytes a record in the broker: 2 x the encoded size + %d, measured), more than %d%% of this host's %s; lower records or split the spec",
			gib(total), len(loads), s.Records, total/int64(len(loads))/int64(s.Records), brokerBytesPerRecord, 100*hostMemShareNum/hostMemShareDen, gib(memTotal))
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

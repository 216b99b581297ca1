package clusters

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/cell"
)

// compressionCodec maps a codec name (cell.Compressions; "" is none) to
// the producer's codec.
func compressionCodec(name string) (kgo.CompressionCodec, error) {
	switch name {
	case "", cell.CompressionNone:
		return kgo.NoCompression(), nil
	case cell.CompressionGzip:
		return kgo.GzipCompression(), nil
	case cell.CompressionSnappy:
		return kgo.SnappyCompression(), nil
	case cell.CompressionLZ4:
		return kgo.Lz4Compression(), nil
	case cell.CompressionZstd:
		return kgo.ZstdCompression(), nil
	}
	return kgo.NoCompression(), fmt.Errorf("unknown compression %q (want %s)", name, strings.Join(cell.Compressions(), ", "))
}

// StoredCompression reads back the codec the last data batch of every
// non-empty partition of topic is stored with (the batch attributes'
// compression bits, which Kafka and kfake keep as the producer wrote them)
// and returns its name. Batches of different codecs in one topic are an
// error: a cell's claim must hold for its whole corpus's start. ctx bounds
// the read (30 s when it has no deadline).
func StoredCompression(ctx context.Context, c Cluster, topic string, partitions int) (string, error) {
	names, err := StoredCodecs(ctx, c, topic, partitions)
	if err != nil {
		return "", err
	}
	if len(names) > 1 {
		return "", fmt.Errorf("topic %s is stored with mixed compression (%s)", topic, strings.Join(names, ", "))
	}
	return names[0], nil
}

// StoredCodecs is StoredCompression's read-back without its verdict: the
// distinct codecs of the last data batches of topic's non-empty partitions,
// in partition order (one at least). A topic written by a producer that
// sends a batch plain when its codec would not shrink it (franz-go does)
// may hold both its codec and none.
func StoredCodecs(ctx context.Context, c Cluster, topic string, partitions int) ([]string, error) {
	if err := validateCorpus(topic, partitions, 0); err != nil {
		return nil, err
	}
	ctx, cancel := withDefaultTimeout(ctx)
	defer cancel()
	var nonEmpty []int32
	last := map[int32]int64{}
	err := c.withAdmin(ctx, func(ctx context.Context, adm *kadm.Client) error {
		s, err := readTopicState(ctx, c, adm, topic)
		if err != nil {
			return err
		}
		if !s.exists {
			return fmt.Errorf("topic %q does not exist", topic)
		}
		for p := range int32(partitions) {
			if s.ends[p] > s.starts[p] {
				nonEmpty = append(nonEmpty, p)
				// One before the last offset: in a transactional
				// topic the last is a control record, which no
				// consumer is handed; the one before it is data.
				last[p] = max(s.starts[p], s.ends[p]-2)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(nonEmpty) == 0 {
		return nil, fmt.Errorf("topic %s has no record to read the compression of", topic)
	}
	// One batch per partition is all it needs: it starts at each
	// partition's last records, so the broker has only the last batch or
	// two to return (read from the start, the read-back decompressed the whole
	// corpus on kfake: it showed up as franz-go decompression in the fast
	// path's profile), and the read-back costs the cell a few kilobytes.
	start := make(map[int32]kgo.Offset, len(nonEmpty))
	for _, p := range nonEmpty {
		start[p] = kgo.NewOffset().At(last[p])
	}
	cl, err := c.newClient(ctx, kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: start}))
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	codecs := make(map[int32]string, len(nonEmpty))
	for len(codecs) < len(nonEmpty) {
		fs := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			return nil, fmt.Errorf("topic %s: read the compression of %d of %d partitions: %w", topic, len(codecs), len(nonEmpty), ctx.Err())
		}
		var ferr error
		fs.EachError(func(t string, p int32, err error) {
			if ferr == nil {
				ferr = fmt.Errorf("topic %s partition %d: %w", t, p, err)
			}
		})
		if ferr != nil {
			return nil, ferr
		}
		fs.EachRecord(func(r *kgo.Record) {
			if _, ok := codecs[r.Partition]; !ok {
				codecs[r.Partition] = codecName(r.Attrs.CompressionType())
			}
		})
	}
	var names []string
	for _, p := range nonEmpty {
		if n := codecs[p]; !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names, nil
}

// codecName names the compression bits of a record batch's attributes:
// Kafka numbers the codecs in cell.Compressions' order.
func codecName(bits uint8) string {
	if cs := cell.Compressions(); int(bits) < len(cs) {
		return cs[bits]
	}
	return fmt.Sprintf("unknown(%d)", bits)
}

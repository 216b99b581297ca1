package source

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/source/internal/drain"
)

// What each client may hold (docs/paths.md, "What each client may hold"):
// the settings that bound how much a client fetches ahead and buffers
// before the lab takes its records, read back from the running client
// and reported with every cell (consume.Assertions.Buffering), so a
// path's memory is read against what its client was allowed to hold.

// The bounds are set, not left to the libraries: each at its library's
// default (librdkafka 2.11, franz-go 1.22, the same as Kafka's Java
// consumer for the fetch sizes, which Flink's KafkaSource runs with), so
// that a library upgrade cannot move what a path may hold unseen, and so
// that the figures compare with upstream's. What they cost and what
// smaller ones would save is measured in docs/results-log.md ("Memory
// against topic length").
//
//   - librdkafka: the fetcher stops fetching for a partition once the
//     consumer queue holds queued.min.messages messages or
//     queued.max.messages.kbytes (64 MiB; with the high-level consumer one
//     bound for the whole consumer queue, overshot by up to one fetch);
//     a fetch brings at most fetch.max.bytes (50 MiB) from a broker and
//     max.partition.fetch.bytes (1 MiB) per partition.
//   - franz-go: a fetch brings at most FetchMaxBytes (50 MiB) from a
//     broker, FetchMaxPartitionBytes (1 MiB) per partition; fetches are
//     issued to every broker at once (MaxConcurrentFetches unbounded),
//     and a broker's next fetch waits until its last one was polled.
var rdkBuffering = map[string]string{
	"queued.min.messages":        strconv.Itoa(cell.LabQueueMin),
	"queued.max.messages.kbytes": "65536",
	"fetch.max.bytes":            "52428800",
	"max.partition.fetch.bytes":  strconv.Itoa(cell.LabPartFetch),
	"fetch.min.bytes":            "1",
	"fetch.wait.max.ms":          strconv.FormatInt(cell.LabFetchWait.Milliseconds(), 10),
}

// rdkBufferingKeys are the librdkafka settings read back: rdkBuffering's,
// and the largest response the client accepts.
var rdkBufferingKeys = []string{
	"queued.min.messages", "queued.max.messages.kbytes",
	"fetch.max.bytes", "max.partition.fetch.bytes", "fetch.min.bytes", "fetch.wait.max.ms",
	"receive.message.max.bytes",
}

// franzBufferingOpts are franz-go's bounds (above).
func franzBufferingOpts() []kgo.Opt {
	return []kgo.Opt{
		kgo.FetchMaxBytes(50 << 20),
		kgo.FetchMaxPartitionBytes(1 << 20),
		kgo.FetchMinBytes(1),
		// Negative is unbounded (one fetch in flight or buffered per
		// broker), franz-go's default. Zero is not: it allows a single
		// fetch, and only while the consumer polls, so a 3-broker read
		// waited out FetchMaxWait (5 s) on a broker with nothing left while
		// another held data: franz read 3 brokers at 78k rec/s, not 3.4M
		// (ed374f0 set 0 for "unbounded"; docs/results-log.md, issue 28).
		kgo.MaxConcurrentFetches(-1),
	}
}

// buffering reads rdkBufferingKeys back from the consumer's
// configuration (rd_kafka_conf_get on its handle).
func (r *rdkConsumer) buffering() (string, error) {
	kv := make([]string, 0, len(rdkBufferingKeys))
	for _, k := range rdkBufferingKeys {
		v, err := drain.Conf(r.c, k)
		if err != nil {
			return "", err
		}
		kv = append(kv, k+"="+v)
	}
	return strings.Join(kv, " "), nil
}

// franzBuffering reads franz-go's fetch bounds back from the client
// (Client.OptValue): the bytes a fetch may bring, per partition and in
// all, how many fetches may be buffered at once (one per broker with the
// default 0: franz-go fetches from a broker again once the records of its
// last fetch were polled), and the fetch wait.
func franzBuffering(cl *kgo.Client) string {
	return fmt.Sprintf("FetchMaxBytes=%v FetchMaxPartitionBytes=%v MaxConcurrentFetches=%v FetchMinBytes=%v FetchMaxWait=%v",
		cl.OptValue(kgo.FetchMaxBytes), cl.OptValue(kgo.FetchMaxPartitionBytes), cl.OptValue(kgo.MaxConcurrentFetches),
		cl.OptValue(kgo.FetchMinBytes), cl.OptValue(kgo.FetchMaxWait))
}

package profile

import "fmt"

// Bucket is one place a profile sample's value is charged to. Every sample
// lands in exactly one bucket; see the package documentation for the rule.
type Bucket int

// The buckets, in the order tables list them.
const (
	// BucketCgo is librdkafka as seen from Go threads: cgo crossings
	// (runtime.cgocall, _Cfunc_ wrappers), C frames, and the Go side of
	// confluent-kafka-go.
	BucketCgo Bucket = iota
	// BucketDecode is the columnar decoders of package workloads.
	BucketDecode
	// BucketVerify is checksumming and verification: workloads hashes and
	// checksums, the corpus generator behind the expected hashes, and the
	// rung's verifier.
	BucketVerify
	// BucketArrow is Arrow building: arrow-go builders and memory.
	BucketArrow
	// BucketClient is the franz-go client (kgo, kmsg, kbin, ...).
	BucketClient
	// BucketGC is the garbage collector: marking, assists, sweeping,
	// scavenging.
	BucketGC
	// BucketRuntime is the rest of the Go runtime: stacks with no owner
	// whose leaf is in the runtime (scheduler, syscalls, allocation by
	// code that belongs to no other bucket).
	BucketRuntime
	// BucketOther is everything else: stacks with no owner whose leaf is
	// not in the runtime (the consume paths' own code, the harness).
	BucketOther

	numBuckets = int(BucketOther) + 1
)

// AllBuckets returns every bucket in table order.
func AllBuckets() []Bucket {
	out := make([]Bucket, numBuckets)
	for i := range out {
		out[i] = Bucket(i)
	}
	return out
}

var bucketNames = [numBuckets]string{
	BucketCgo:     "librdkafka/cgo",
	BucketDecode:  "decode",
	BucketVerify:  "checksum/verify",
	BucketArrow:   "arrow",
	BucketClient:  "client",
	BucketGC:      "gc",
	BucketRuntime: "runtime",
	BucketOther:   "other",
}

// String is the bucket's name as tables print it.
func (b Bucket) String() string {
	if b < 0 || int(b) >= numBuckets {
		return fmt.Sprintf("bucket(%d)", int(b))
	}
	return bucketNames[b]
}

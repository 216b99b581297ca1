package workloads

import (
	"fmt"
	"sync"
)

// Corpus is a deterministic, seeded set of Count() records in one format.
// The same schema, format, seed and count always give the same bytes, and
// every method computes record i on its own, so loaders may produce records
// in parallel. A Corpus is safe for concurrent use.
type Corpus struct {
	schema *Schema // the codec's schema (a raw view for FormatRaw)
	codec  Codec
	json   *jsonCodec // encodes raw payloads
	seed   uint64
	count  int
	size   int       // ValueSize, 0 for the natural ~100 B records
	pad    int       // letters added to every record's extra field
	keyed  bool      // records carry a key and headers (Keys)
	states sync.Pool // *genState
}

// NewCorpus returns the corpus of count records of schema s encoded by c.
// s must be c's schema or the logical schema c was made for (it panics
// otherwise: that is a programming error, not bad data). A negative count is
// taken as zero.
func NewCorpus(s *Schema, c Codec, seed uint64, count int, opts ...CorpusOpt) *Corpus {
	if s == nil || c == nil || s.Base() != c.Schema().Base() {
		panic("workloads: NewCorpus: schema does not match the codec's schema")
	}
	count = max(count, 0)
	cp := &Corpus{
		schema: c.Schema(),
		codec:  c,
		json:   &jsonCodec{schema: s.Base()},
		seed:   seed,
		count:  count,
		states: sync.Pool{New: func() any { return new(genState) }},
	}
	for _, o := range opts {
		o(cp)
	}
	return cp
}

// CorpusOpt configures a Corpus.
type CorpusOpt func(*Corpus)

// naturalValue is about the size of a bid's JSON value without padding.
const naturalValue = 110

// ValueSize scales the records to about n bytes each: the extra field of
// every record gets n-110 more pseudo-random letters, so a JSON (and raw)
// value is about n bytes and an Avro or protobuf value about 40 bytes less.
// The schema stays the same; only one text column grows. n <= 110 keeps
// the natural ~100 B records (and the corpus ID).
func ValueSize(n int) CorpusOpt {
	return func(c *Corpus) {
		if n > naturalValue {
			c.size, c.pad = n, n-naturalValue
		}
	}
}

// ValueSize is the size the records were scaled to, 0 for natural records.
func (c *Corpus) ValueSize() int { return c.size }

// Count is the number of records.
func (c *Corpus) Count() int { return c.count }

// Seed is the generator seed.
func (c *Corpus) Seed() uint64 { return c.seed }

// Codec is the corpus's codec.
func (c *Corpus) Codec() Codec { return c.codec }

// ID identifies (schema, format, seed, count, value size, keys) in a form
// fit for a Kafka topic name, e.g. "bid-json-s42-n2000000", or
// "bid-json-s42-n2000000-v1024-keys" for ~1 KiB keyed records.
func (c *Corpus) ID() string {
	id := fmt.Sprintf("%s-%s-s%d-n%d", c.schema.Name, c.codec.Format(), c.seed, c.count)
	if c.size > 0 {
		id += fmt.Sprintf("-v%d", c.size)
	}
	if c.keyed {
		id += "-keys"
	}
	return id
}

// Row fills r with record i. Its strings are freshly allocated. For the raw
// format r also carries the logical fields, and Payload is the message.
func (c *Corpus) Row(i int, r *Row) {
	st := c.get()
	defer c.states.Put(st)
	generate(c.schema, c.seed, i, c.pad, st, false)
	*r = st.row
	if c.schema.IsRaw() {
		r.Payload = c.json.Encode(nil, r)
	}
}

// Message appends the encoded message of record i to dst.
func (c *Corpus) Message(dst []byte, i int) []byte {
	st := c.get()
	defer c.states.Put(st)
	generate(c.schema, c.seed, i, c.pad, st, true)
	if c.schema.IsRaw() {
		return c.json.Encode(dst, &st.row)
	}
	return c.codec.Encode(dst, &st.row)
}

// Hash is the row hash (see RowHash) that decoding message i gives; for a
// keyed corpus, of the decoded row with its key and headers columns
// (KeyedSchema).
func (c *Corpus) Hash(i int) uint64 {
	st := c.get()
	defer c.states.Put(st)
	return c.hash(i, st)
}

// Checksum is the wrapping sum of Hash(i) for i in [from, to): what
// BatchChecksum gives for a batch of exactly those records.
func (c *Corpus) Checksum(from, to int) uint64 {
	st := c.get()
	defer c.states.Put(st)
	var sum uint64
	for i := from; i < to; i++ {
		sum += c.hash(i, st)
	}
	return sum
}

func (c *Corpus) hash(i int, st *genState) uint64 {
	generate(c.schema, c.seed, i, c.pad, st, true)
	if c.schema.IsRaw() {
		st.enc = c.json.Encode(st.enc[:0], &st.row)
		st.row.Payload = st.enc
	}
	if !c.keyed {
		return HashRow(c.schema, &st.row)
	}
	h := foldRow(rowSeed(len(c.schema.cols)+2), c.schema, &st.row)
	return avalanche(c.keyHashes(h, i))
}

func (c *Corpus) get() *genState { return c.states.Get().(*genState) }

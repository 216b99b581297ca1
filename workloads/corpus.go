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
	states sync.Pool // *genState
}

// NewCorpus returns the corpus of count records of schema s encoded by c.
// s must be c's schema or the logical schema c was made for (it panics
// otherwise: that is a programming error, not bad data). A negative count is
// taken as zero.
func NewCorpus(s *Schema, c Codec, seed uint64, count int) *Corpus {
	if s == nil || c == nil || s.Base() != c.Schema().Base() {
		panic("workloads: NewCorpus: schema does not match the codec's schema")
	}
	count = max(count, 0)
	return &Corpus{
		schema: c.Schema(),
		codec:  c,
		json:   &jsonCodec{schema: s.Base()},
		seed:   seed,
		count:  count,
		states: sync.Pool{New: func() any { return new(genState) }},
	}
}

// Count is the number of records.
func (c *Corpus) Count() int { return c.count }

// Seed is the generator seed.
func (c *Corpus) Seed() uint64 { return c.seed }

// Codec is the corpus's codec.
func (c *Corpus) Codec() Codec { return c.codec }

// ID identifies (schema, format, seed, count) in a form fit for a Kafka topic
// name, e.g. "bid-json-s42-n2000000".
func (c *Corpus) ID() string {
	return fmt.Sprintf("%s-%s-s%d-n%d", c.schema.Name, c.codec.Format(), c.seed, c.count)
}

// Row fills r with record i. Its strings are freshly allocated. For the raw
// format r also carries the logical fields, and Payload is the message.
func (c *Corpus) Row(i int, r *Row) {
	st := c.get()
	defer c.states.Put(st)
	generate(c.schema, c.seed, i, st, false)
	*r = st.row
	if c.schema.IsRaw() {
		r.Payload = c.json.Encode(nil, r)
	}
}

// Message appends the encoded message of record i to dst.
func (c *Corpus) Message(dst []byte, i int) []byte {
	st := c.get()
	defer c.states.Put(st)
	generate(c.schema, c.seed, i, st, true)
	if c.schema.IsRaw() {
		return c.json.Encode(dst, &st.row)
	}
	return c.codec.Encode(dst, &st.row)
}

// Hash is the row hash (see RowHash) that decoding message i gives.
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
	generate(c.schema, c.seed, i, st, true)
	if c.schema.IsRaw() {
		st.enc = c.json.Encode(st.enc[:0], &st.row)
		st.row.Payload = st.enc
	}
	return HashRow(c.schema, &st.row)
}

func (c *Corpus) get() *genState { return c.states.Get().(*genState) }

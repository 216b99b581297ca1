package workloads

import (
	"strconv"
	"unsafe"
)

// The generator makes Nexmark-like bid rows. Record i depends only on the
// seed and i (a splitmix64 stream keyed by both), so any record can be made
// on its own, in any order, in parallel. It uses integer arithmetic only, so
// the corpus is the same on every architecture.

// nexmarkEpoch is 2015-07-15 00:00:00 UTC, Nexmark's base time, in ms.
const nexmarkEpoch = 1436918400000

var (
	hotChannels = [...]string{"Google", "Facebook", "Baidu", "Apple"}
	cities      = [...]string{"Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland", "Bend", "Redmond", "Seattle", "Kent", "Cheyenne"}
	states      = [...]string{"AZ", "CA", "ID", "OR", "WA", "WY"}
	// oddities are spliced into a few extra values so every codec's
	// escaping and quoting is exercised by the corpus itself.
	oddities = [...]string{`"`, `,`, "\n", `\`, "\t", "é", "€", `""`, "\r\n"}
)

// rng is a splitmix64 stream.
type rng struct{ x uint64 }

func (g *rng) next() uint64 {
	g.x += 0x9E3779B97F4A7C15
	return splitmix(g.x)
}

func splitmix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// below returns a value in [0, n).
func (g *rng) below(n uint64) uint64 { return g.next() % n }

// letters appends n pseudo-random lowercase letters.
func (g *rng) letters(dst []byte, n int) []byte {
	var bitsLeft int
	var r uint64
	for ; n > 0; n-- {
		if bitsLeft < 5 {
			r, bitsLeft = g.next(), 64
		}
		dst = append(dst, 'a'+byte((r&31)%26))
		r >>= 5
		bitsLeft -= 5
	}
	return dst
}

// genState is reusable generation scratch.
type genState struct {
	row Row
	buf []byte // string values of the row being made
	enc []byte // an encoding of it
}

// span marks a string value inside genState.buf.
type span struct{ from, to int }

// generate fills st.row with record i of seed for schema s, its extra field
// padded with pad more letters after the natural ones (from a stream of
// their own, so every other field is that of the unpadded record). With alias the
// row's strings point into st.buf (valid until the next call); without, they
// share one freshly allocated string.
func generate(s *Schema, seed uint64, i, pad int, st *genState, alias bool) {
	g := recordRNG(seed, i)
	r := &st.row
	*r = Row{}
	b := st.buf[:0]
	var sp [8]span
	mark := func(k int, from int) { sp[k] = span{from, len(b)} }

	// auction and bidder are the stream's first two draws: bidderOf
	// repeats them without generating the rest of the record
	r.Auction = 1000 + int64(i/10) + int64(g.below(50))
	r.Bidder = 1000 + int64(g.below(100000))
	r.Price = randPrice(&g)
	r.DateTime = nexmarkEpoch + int64(i)*10 + int64(g.below(10))

	from := len(b)
	if c := g.below(8); c < 6 {
		b = append(b, hotChannels[c%4]...)
	} else {
		b = append(b, "channel-"...)
		b = strconv.AppendUint(b, g.below(10000), 10)
	}
	mark(0, from)

	from = len(b)
	b = append(b, "https://www.nexmark.com/"...)
	b = g.letters(b, 3+int(g.below(4)))
	mark(1, from)

	from = len(b)
	n := int(g.below(12))
	b = g.letters(b, n)
	if g.below(16) == 0 {
		at := from + int(g.below(uint64(n+1)))
		odd := oddities[g.below(uint64(len(oddities)))]
		b = append(b, odd...)
		copy(b[at+len(odd):], b[at:len(b)-len(odd)])
		copy(b[at:], odd)
	}
	if pad > 0 { // its own stream: the other fields stay those of the unpadded record
		pg := rng{x: splitmix(g.x ^ 0x7F4A7C159E3779B9)}
		b = pg.letters(b, pad)
	}
	mark(2, from)

	wide := len(s.Base().cols) > 7
	if wide {
		r.Seller = 1000 + int64(g.below(100000))
		r.Category = 10 + int64(g.below(5))
		r.InitialBid = 1 + int64(g.below(uint64(r.Price)))
		r.Reserve = r.Price + int64(g.below(10000))
		from = len(b)
		b = g.letters(b, 5+int(g.below(8)))
		mark(3, from)
		from = len(b)
		b = append(b, cities[g.below(uint64(len(cities)))]...)
		mark(4, from)
		from = len(b)
		b = append(b, states[g.below(uint64(len(states)))]...)
		mark(5, from)
		from = len(b)
		b = g.letters(b, 4+int(g.below(6)))
		b = append(b, '@')
		b = g.letters(b, 5)
		b = append(b, ".com"...)
		mark(6, from)
	}
	st.buf = b

	var all string
	switch {
	case alias:
		all = unsafe.String(unsafe.SliceData(b), len(b))
	default:
		all = string(b)
	}
	sub := func(k int) string { return all[sp[k].from:sp[k].to] }
	r.Channel, r.URL, r.Extra = sub(0), sub(1), sub(2)
	if wide {
		r.ItemName, r.City, r.State, r.Email = sub(3), sub(4), sub(5), sub(6)
	}
}

// recordRNG is the stream record i of seed is generated from.
func recordRNG(seed uint64, i int) rng {
	return rng{x: splitmix(seed ^ splitmix(uint64(i)+0x632BE59BD9B4E019))}
}

// bidderOf is record i's bidder, as generate draws it, without the rest
// of the record.
func bidderOf(seed uint64, i int) int64 {
	g := recordRNG(seed, i)
	g.below(50) // the auction's draw
	return 1000 + int64(g.below(100000))
}

// randPrice is a log-uniform price in cents from 1 to 999,999.
func randPrice(g *rng) int64 {
	p := int64(1)
	for d := g.below(6); d > 0; d-- {
		p *= 10
	}
	return p + int64(g.below(uint64(9*p)))
}

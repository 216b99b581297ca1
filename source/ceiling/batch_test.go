package ceiling

import (
	"encoding/binary"
	"strings"
	"testing"
)

// rawBatch is a v2 record batch of count records at base..base+delta with
// attrs and payload bytes of (uncounted) records after its header.
func rawBatch(base int64, delta, count int32, attrs uint16, payload int) []byte {
	b := make([]byte, batchHeaderLen+payload)
	binary.BigEndian.PutUint64(b[offBaseOffset:], uint64(base))
	binary.BigEndian.PutUint32(b[offBatchLength:], uint32(len(b)-batchLogOverhead))
	b[offMagic] = 2
	binary.BigEndian.PutUint16(b[offAttributes:], attrs)
	binary.BigEndian.PutUint32(b[offLastOffsetDelta:], uint32(delta))
	binary.BigEndian.PutUint32(b[offRecordCount:], uint32(count))
	return b
}

func concat(bs ...[]byte) []byte {
	var out []byte
	for _, b := range bs {
		out = append(out, b...)
	}
	return out
}

func TestWalkCounts(t *testing.T) {
	b := concat(
		rawBatch(10, 4, 5, 0, 100),                // none
		rawBatch(15, 2, 3, 1, 10),                 // gzip
		rawBatch(18, 0, 1, attrControl, 0),        // a transaction marker
		rawBatch(19, 9, 10, 4|0x10, 7),            // zstd, transactional
		rawBatch(29, 1, 2, 3, 1)[:batchHeaderLen], // cut short by a size limit
	)
	got, err := walk(b, 10, 100)
	if err != nil {
		t.Fatal(err)
	}
	want := tally{records: 18, control: 1, batches: 4, next: 29,
		bytes: int64(4*batchHeaderLen + 100 + 10 + 7)}
	want.codecs[0], want.codecs[1], want.codecs[4] = 2, 1, 1
	if got != want {
		t.Errorf("walk = %+v, want %+v", got, want)
	}
}

func TestWalkEnds(t *testing.T) {
	cases := []struct {
		name string
		b    []byte
		from int64
		want tally
	}{
		{"empty", nil, 7, tally{next: 7}},
		{"shorter than an offset and length", make([]byte, 11), 7, tally{next: 7}},
		{"first batch cut short", rawBatch(7, 0, 1, 0, 50)[:60], 7, tally{next: 7}},
		{"ends at the stop", concat(rawBatch(0, 9, 10, 0, 0), rawBatch(10, 0, 1, 0, 0)), 0,
			tally{records: 10, batches: 1, bytes: batchHeaderLen, next: 10, codecs: [5]int64{1}}},
		{"appended after the stop", rawBatch(12, 0, 1, 0, 0), 10, tally{next: 10, past: true}},
		{"wholly before the fetch offset", concat(rawBatch(0, 4, 5, 0, 0), rawBatch(5, 0, 1, 0, 0)), 5,
			tally{records: 1, batches: 1, bytes: batchHeaderLen, next: 6, codecs: [5]int64{1}}},
	}
	for _, c := range cases {
		got, err := walk(c.b, c.from, 10)
		if err != nil || got != c.want {
			t.Errorf("%s: walk = %+v, %v; want %+v", c.name, got, err, c.want)
		}
	}
}

func TestWalkErrors(t *testing.T) {
	oldMagic := rawBatch(0, 0, 1, 0, 0)
	oldMagic[offMagic] = 1
	short := rawBatch(0, 0, 1, 0, 0)
	binary.BigEndian.PutUint32(short[offBatchLength:], 48)
	cases := []struct {
		name string
		b    []byte
		from int64
		want string
	}{
		{"straddles the stop", rawBatch(5, 9, 10, 0, 0), 5, "batch 5..14 extends past the stop 10: the topic grew during the read"},
		{"straddles the fetch offset", rawBatch(0, 4, 5, 0, 0), 3, "batch 0..4 starts before the fetch offset 3"},
		{"not v2", oldMagic, 0, "magic 1, only v2 record batches are counted"},
		{"length below a header", short, 0, "length 48 is shorter than a v2 batch header"},
		{"unknown codec", rawBatch(0, 0, 1, 5, 0), 0, "unknown compression codec 5"},
		{"negative count", rawBatch(0, 0, -1, 0, 0), 0, "record count -1"},
	}
	for _, c := range cases {
		_, err := walk(c.b, c.from, 10)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: walk error %v, want one line with %q", c.name, err, c.want)
		}
	}
}

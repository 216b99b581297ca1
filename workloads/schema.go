package workloads

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// kind is the physical type of a column, shared by every format.
type kind uint8

const (
	kindInt64     kind = iota // arrow int64; varint/decimal on the wire
	kindTimestamp             // arrow timestamp[ms, tz=UTC]; epoch milliseconds on the wire
	kindString                // arrow utf8; UTF-8 text on the wire
	kindBinary                // arrow binary; opaque bytes (raw format only)
)

// column is one column of a schema and the Row field that holds it.
type column struct {
	name    string
	kind    kind
	field   field
	jsonKey string // `"name":`, the JSON decoder's fast path
}

// Schema is a named record layout: its Arrow schema and the columns every
// codec encodes in order. Schemas returned by SchemaByName are shared and
// must not be modified.
type Schema struct {
	Name  string
	Arrow *arrow.Schema

	cols []column
	base *Schema // the logical schema (itself unless this is a raw view)
	raw  *Schema // the raw view of a logical schema
}

// Base returns the logical schema: s itself, or for a raw view the schema
// whose JSON rows the raw payloads carry.
func (s *Schema) Base() *Schema { return s.base }

// Raw returns the raw view of s: one non-null binary column named "value".
func (s *Schema) Raw() *Schema { return s.base.raw }

// IsRaw reports whether s is a raw view (one opaque binary column).
func (s *Schema) IsRaw() bool { return s.base != s }

// NumColumns is the number of Arrow columns.
func (s *Schema) NumColumns() int { return len(s.cols) }

// SchemaNames lists the names SchemaByName accepts.
func SchemaNames() []string { return []string{"bid", "bid-wide"} }

// SchemaByName returns a built-in schema:
//
//   - "bid": Nexmark bid: auction, bidder, price int64; channel, url string;
//     date_time timestamp[ms, tz=UTC]; extra string.
//   - "bid-wide": the bid columns, then seller, category, reserve,
//     initial_bid int64, then item_name, city, state, email string (Nexmark
//     auction and person attributes denormalised onto the bid).
func SchemaByName(name string) (*Schema, error) {
	switch name {
	case "bid":
		return builtin.bid, nil
	case "bid-wide":
		return builtin.bidWide, nil
	}
	return nil, fmt.Errorf("unknown schema %q (want bid or bid-wide)", name)
}

// builtin holds the schemas; they are immutable once built.
var builtin = struct{ bid, bidWide *Schema }{
	bid:     newSchema("bid", bidColumns()),
	bidWide: newSchema("bid-wide", append(bidColumns(), wideColumns()...)),
}

func bidColumns() []column {
	return []column{
		{name: "auction", kind: kindInt64, field: fAuction},
		{name: "bidder", kind: kindInt64, field: fBidder},
		{name: "price", kind: kindInt64, field: fPrice},
		{name: "channel", kind: kindString, field: fChannel},
		{name: "url", kind: kindString, field: fURL},
		{name: "date_time", kind: kindTimestamp, field: fDateTime},
		{name: "extra", kind: kindString, field: fExtra},
	}
}

func wideColumns() []column {
	return []column{
		{name: "seller", kind: kindInt64, field: fSeller},
		{name: "category", kind: kindInt64, field: fCategory},
		{name: "reserve", kind: kindInt64, field: fReserve},
		{name: "initial_bid", kind: kindInt64, field: fInitialBid},
		{name: "item_name", kind: kindString, field: fItemName},
		{name: "city", kind: kindString, field: fCity},
		{name: "state", kind: kindString, field: fState},
		{name: "email", kind: kindString, field: fEmail},
	}
}

func newSchema(name string, cols []column) *Schema {
	for i := range cols {
		cols[i].jsonKey = `"` + cols[i].name + `":`
	}
	s := &Schema{Name: name, Arrow: arrowSchema(cols), cols: cols}
	s.base = s
	rawCols := []column{{name: "value", kind: kindBinary, field: fPayload}}
	s.raw = &Schema{Name: name, Arrow: arrowSchema(rawCols), cols: rawCols, base: s}
	return s
}

func arrowSchema(cols []column) *arrow.Schema {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.name, Type: c.kind.arrowType(), Nullable: true}
	}
	return arrow.NewSchema(fields, nil)
}

func (k kind) arrowType() arrow.DataType {
	switch k {
	case kindInt64:
		return arrow.PrimitiveTypes.Int64
	case kindTimestamp:
		return arrow.FixedWidthTypes.Timestamp_ms
	case kindString:
		return arrow.BinaryTypes.String
	default:
		return arrow.BinaryTypes.Binary
	}
}

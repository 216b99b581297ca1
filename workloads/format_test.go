package workloads

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestParseFormat(t *testing.T) {
	for _, f := range Formats() {
		got, err := ParseFormat(string(f))
		if err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %q, %v", f, got, err)
		}
	}
	if len(Formats()) != 5 {
		t.Errorf("Formats() = %v, want 5 formats", Formats())
	}
	_, err := ParseFormat("xml")
	want := `unknown format "xml" (want json, avro, protobuf, csv, raw)`
	if err == nil || err.Error() != want {
		t.Errorf("ParseFormat(xml) error = %v, want %s", err, want)
	}
	if _, err := NewCodec("xml", builtin.bid); err == nil {
		t.Error("NewCodec(xml) succeeded")
	}
	if _, err := NewCodec(FormatJSON, nil); err == nil {
		t.Error("NewCodec with nil schema succeeded")
	}
}

func TestSchemas(t *testing.T) {
	bid, err := SchemaByName("bid")
	if err != nil {
		t.Fatal(err)
	}
	// every column nullable: a tombstone is an all-null row
	want := "schema:\n  fields: 7\n" +
		"    - auction: type=int64, nullable\n    - bidder: type=int64, nullable\n    - price: type=int64, nullable\n" +
		"    - channel: type=utf8, nullable\n    - url: type=utf8, nullable\n" +
		"    - date_time: type=timestamp[ms, tz=UTC], nullable\n    - extra: type=utf8, nullable"
	if got := bid.Arrow.String(); got != want {
		t.Errorf("bid schema:\n%s\nwant:\n%s", got, want)
	}
	wide, err := SchemaByName("bid-wide")
	if err != nil {
		t.Fatal(err)
	}
	if wide.NumColumns() != 15 || wide.Arrow.NumFields() != 15 {
		t.Fatalf("bid-wide has %d columns, want 15", wide.NumColumns())
	}
	for i := range bid.Arrow.Fields() {
		if !bid.Arrow.Field(i).Equal(wide.Arrow.Field(i)) {
			t.Errorf("bid-wide column %d = %v, want bid's %v", i, wide.Arrow.Field(i), bid.Arrow.Field(i))
		}
	}
	raw := bid.Raw()
	if !raw.IsRaw() || bid.IsRaw() || raw.Base() != bid || raw.Name != "bid" {
		t.Errorf("raw view: IsRaw=%v base ok=%v name=%q", raw.IsRaw(), raw.Base() == bid, raw.Name)
	}
	if raw.Arrow.NumFields() != 1 || raw.Arrow.Field(0).Name != "value" ||
		!arrow.TypeEqual(raw.Arrow.Field(0).Type, arrow.BinaryTypes.Binary) {
		t.Errorf("raw schema = %v", raw.Arrow)
	}
	c, _ := NewCodec(FormatRaw, bid)
	if c.Schema() != raw {
		t.Error("raw codec's schema is not bid.Raw()")
	}
	if _, err := SchemaByName("ask"); err == nil {
		t.Error("SchemaByName(ask) succeeded")
	}
	for _, s := range []*Schema{bid, wide} {
		if s.NumColumns() > maxColumns {
			t.Errorf("%s has more than %d columns", s.Name, maxColumns)
		}
	}
}

package stock

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/workloads"
)

func TestMeasure(t *testing.T) {
	rs, err := Measure(context.Background(), Options{Formats: []workloads.Format{workloads.FormatAvro, workloads.FormatCSV},
		Records: BatchRows + 100, MinTime: time.Millisecond, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range rs {
		names = append(names, r.Name())
		if r.Records < BatchRows+100 || !(r.NsPerRec > 0) || !(r.RecPerSec > 0) || r.CPUNsPerRec < 0 || r.BytesPerRec < 0 || r.AllocsPerRec < 0 || r.Schema != "bid" || r.Library == "" {
			t.Errorf("%s: implausible %+v", r.Name(), r)
		}
	}
	want := "micro=decode/format=avro/lib=lab micro=decode/format=avro/lib=hamba micro=decode/format=avro/lib=goavro micro=decode/format=avro/lib=arrow-ocf " +
		"micro=decode/format=csv/lib=lab micro=decode/format=csv/lib=arrow-csv"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("results %s\nwant %s", got, want)
	}
}

// TestMeasureSize: Options.Size scales the records, and the row's name says
// so; the natural size adds no size part.
func TestMeasureSize(t *testing.T) {
	rs, err := Measure(context.Background(), Options{Formats: []workloads.Format{workloads.FormatJSON}, Libs: []string{Lab},
		Records: BatchRows, MinTime: time.Millisecond, Seed: 3, Size: 1024})
	if err != nil {
		t.Fatal(err)
	}
	if r := rs[0]; r.Size != 1024 || r.Name() != "micro=decode/format=json/lib=lab/size=1024" {
		t.Errorf("size 1024: %s, size %d", r.Name(), r.Size)
	}
}

// TestMeasurePool: Options.Mem pool builds every route's batches from the
// paths' recycling pool (rows named mem=pool); a route whose batches do not
// come from the allocator it was given gets nothing from the pool and
// fails instead of reporting Go's allocator as the pool.
func TestMeasurePool(t *testing.T) {
	rs, err := Measure(context.Background(), Options{Formats: []workloads.Format{workloads.FormatProtobuf}, Libs: []string{Lab, LibVTProto},
		Records: 3 * BatchRows, MinTime: time.Millisecond, Seed: 3, Size: 1024, Mem: MemPool})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range rs {
		names = append(names, r.Name())
		if r.Mem != MemPool {
			t.Errorf("%s: mem %q", r.Name(), r.Mem)
		}
	}
	want := "micro=decode/format=protobuf/lib=lab/size=1024/mem=pool micro=decode/format=protobuf/lib=vtprotobuf/size=1024/mem=pool"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("results %s\nwant %s", got, want)
	}

	_, cp, msgs := corpus(t, workloads.FormatProtobuf, "bid", 42, 2*BatchRows)
	own := Route{Format: workloads.FormatProtobuf, Lib: "own-mem", New: func(s *workloads.Schema, _ memory.Allocator) (Decoder, error) {
		return newVTProto(s, memory.NewGoAllocator())
	}}
	if _, err := measureOne(context.Background(), own, cp, msgs, time.Millisecond, MemGo); err != nil {
		t.Errorf("own allocator, mem=go: %v", err)
	}
	if _, err := measureOne(context.Background(), own, cp, msgs, time.Millisecond, MemPool); err == nil || !strings.Contains(err.Error(), "the pool served no buffer") {
		t.Errorf("own allocator, mem=pool: %v", err)
	}
}

func TestMeasureBadOptions(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{Formats: []workloads.Format{workloads.FormatRaw}}, `format "raw" has no decode routes`},
		{Options{Formats: []workloads.Format{workloads.FormatJSON}, Libs: []string{LibHamba}}, `unknown lib "hamba" for format json`},
		{Options{Schema: "ask"}, `unknown schema "ask"`},
		{Options{Mem: "arena"}, `stock: unknown allocator "arena" (pool or go)`},
	} {
		if _, err := Measure(ctx, c.opt); err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Measure(%+v): %v, want one line starting %s", c.opt, err, c.want)
		}
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Measure(canceled, Options{Formats: []workloads.Format{workloads.FormatJSON}, Records: 10}); err == nil {
		t.Error("Measure ran on a canceled context")
	}
}

// TestMeasureRejectsWrongDecoder: a route that gets one value of one
// record wrong fails verification instead of reporting a number, and so
// does arrow-csv without the CRLF normalization it declares.
func TestMeasureRejectsWrongDecoder(t *testing.T) {
	s, err := workloads.SchemaByName("bid")
	if err != nil {
		t.Fatal(err)
	}
	c, err := workloads.NewCodec(workloads.FormatJSON, s)
	if err != nil {
		t.Fatal(err)
	}
	cp := workloads.NewCorpus(s, c, 42, 3*BatchRows)
	msgs := make([][]byte, cp.Count())
	for i := range msgs {
		msgs[i] = cp.Message(nil, i)
	}
	wrong := Route{Format: workloads.FormatJSON, Lib: "wrong", New: func(s *workloads.Schema, mem memory.Allocator) (Decoder, error) {
		d, err := newStdJSON(s, mem)
		return &offByOne{Decoder: d, at: 2*BatchRows + 17}, err
	}}
	_, err = measureOne(context.Background(), wrong, cp, msgs, time.Millisecond, MemGo)
	if err == nil || !strings.Contains(err.Error(), "json/wrong: batch 2 (records 16384..24575) checksum") {
		t.Errorf("wrong decoder: %v", err)
	}

	csvc, err := workloads.NewCodec(workloads.FormatCSV, s)
	if err != nil {
		t.Fatal(err)
	}
	cp = workloads.NewCorpus(s, csvc, 42, 2*BatchRows)
	msgs = msgs[:cp.Count()]
	crlf := 0
	for i := range msgs {
		msgs[i] = cp.Message(nil, i)
		if strings.Contains(string(msgs[i]), "\r\n") {
			crlf++
		}
	}
	if crlf == 0 {
		t.Fatal("the corpus has no CRLF in a quoted field to test with")
	}
	r, err := Lookup(workloads.FormatCSV, LibArrowCSV)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := measureOne(context.Background(), r, cp, msgs, time.Millisecond, MemGo); err != nil {
		t.Errorf("arrow-csv with its normalization: %v", err)
	}
	r.Normalize = nil
	if _, err := measureOne(context.Background(), r, cp, msgs, time.Millisecond, MemGo); err == nil || !strings.Contains(err.Error(), "a decoded value is wrong") {
		t.Errorf("arrow-csv without its normalization: %v", err)
	}
}

// offByOne is a decoder that gets the first column of one record wrong.
type offByOne struct {
	Decoder
	at, n int
}

func (d *offByOne) Append(msg []byte) error {
	defer func() { d.n++ }()
	if d.n%(3*BatchRows) == d.at {
		msg = []byte(strings.Replace(string(msg), `{"auction":`, `{"auction":1`, 1))
	}
	return d.Decoder.Append(msg)
}

func (d *offByOne) NewRecordBatch() (arrow.RecordBatch, error) { return d.Decoder.NewRecordBatch() }

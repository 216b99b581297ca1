package stock

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/workloads"
)

// corpus returns n messages of format f under schema name and the corpus.
func corpus(t testing.TB, f workloads.Format, name string, seed uint64, n int, opts ...workloads.CorpusOpt) (*workloads.Schema, *workloads.Corpus, [][]byte) {
	t.Helper()
	s, err := workloads.SchemaByName(name)
	if err != nil {
		t.Fatal(err)
	}
	c, err := workloads.NewCodec(f, s)
	if err != nil {
		t.Fatal(err)
	}
	cp := workloads.NewCorpus(c.Schema(), c, seed, n, opts...)
	msgs := make([][]byte, n)
	for i := range msgs {
		msgs[i] = cp.Message(nil, i)
	}
	return c.Schema(), cp, msgs
}

// TestRoutesDecodeCorpus: every route gives the corpus's rows (normalized
// where the route says so), in two batches, for both schemas and with a
// checked allocator, so a leak or a wrong column fails.
func TestRoutesDecodeCorpus(t *testing.T) {
	for _, f := range Formats() {
		for _, name := range workloads.SchemaNames() {
			s, cp, msgs := corpus(t, f, name, 7, 3000)
			for _, r := range Routes(f) {
				t.Run(string(f)+"/"+name+"/"+r.Lib, func(t *testing.T) {
					mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
					defer mem.AssertSize(t, 0)
					d, err := r.New(s, mem)
					if err != nil {
						t.Fatal(err)
					}
					defer d.Release()
					exp, err := expected(r, cp)
					if err != nil {
						t.Fatal(err)
					}
					for _, span := range [][2]int{{0, 1000}, {1000, 3000}} {
						for i := span[0]; i < span[1]; i++ {
							if err := d.Append(msgs[i]); err != nil {
								t.Fatalf("message %d %q: %v", i, msgs[i], err)
							}
						}
						rec, err := d.NewRecordBatch()
						if err != nil {
							t.Fatal(err)
						}
						if !rec.Schema().Equal(s.Arrow) {
							t.Errorf("schema %s, want %s", rec.Schema(), s.Arrow)
						}
						if int(rec.NumRows()) != span[1]-span[0] {
							t.Fatalf("%d rows, want %d", rec.NumRows(), span[1]-span[0])
						}
						for i := range int(rec.NumRows()) {
							if got, want := workloads.RowHash(rec, i), exp.hashes[span[0]+i]; got != want {
								t.Fatalf("row %d (%q) hashes %x, want %x", span[0]+i, msgs[span[0]+i], got, want)
							}
						}
						rec.Release()
					}
				})
			}
		}
	}
}

func TestLookup(t *testing.T) {
	if r, err := Lookup(workloads.FormatAvro, LibHamba); err != nil || r.Lib != LibHamba {
		t.Fatalf("Lookup(avro, hamba) = %v, %v", r.Lib, err)
	}
	for _, c := range []struct {
		f    workloads.Format
		lib  string
		want string
	}{
		{workloads.FormatJSON, "simdjson", `unknown lib "simdjson" for format json (want lab, encoding-json, goccy, sonic, arrow-unmarshal, arrow-json)`},
		{workloads.FormatRaw, Lab, `format "raw" has no decode routes (want json, avro, protobuf, csv)`},
		{"xml", Lab, `format "xml" has no decode routes (want json, avro, protobuf, csv)`},
	} {
		if _, err := Lookup(c.f, c.lib); err == nil || err.Error() != c.want {
			t.Errorf("Lookup(%s, %s) = %v, want %s", c.f, c.lib, err, c.want)
		}
	}
	for _, f := range Formats() {
		if libs := Libs(f); len(libs) < 2 || libs[0] != Lab {
			t.Errorf("Libs(%s) = %v, want lab first and a stock route", f, libs)
		}
	}
}

// TestBadMessageIsParseError: a bad message is an error wrapping
// ErrParse from every route, and the decoder goes on.
func TestBadMessageIsParseError(t *testing.T) {
	for _, f := range Formats() {
		s, _, msgs := corpus(t, f, "bid", 3, 2)
		for _, r := range Routes(f) {
			d, err := r.New(s, memory.NewGoAllocator())
			if err != nil {
				t.Fatal(err)
			}
			bad := msgs[0][:len(msgs[0])/2]
			if f == workloads.FormatProtobuf {
				bad = append([]byte{0x0f}, msgs[0]...) // wire type 7
			}
			err = d.Append(bad)
			if err == nil {
				_, err = d.NewRecordBatch()
			}
			if !errors.Is(err, workloads.ErrParse) || !strings.Contains(err.Error(), r.Lib) && r.Lib != Lab {
				t.Errorf("%s/%s: bad message: err %v, want a parse error naming the lib", f, r.Lib, err)
			}
			if err := d.Append(msgs[1]); err != nil {
				t.Fatal(err)
			}
			rec, err := d.NewRecordBatch()
			if err != nil || rec.NumRows() != 1 {
				t.Fatalf("%s/%s: after a bad message: %v", f, r.Lib, err)
			}
			rec.Release()
			d.Release()
		}
	}
}

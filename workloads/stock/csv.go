package stock

import (
	"bytes"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/csv"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/workloads"
)

// CSV route: arrow-go's arrow/csv.Reader (encoding/csv underneath) reads
// the batch's messages joined by newlines, with the schema given (no
// header, no null strings: an empty field is an empty string, as in the
// lab). It parses int64 with strconv.ParseInt and a timestamp column from
// an integer (epoch units) or an ISO-8601 text.
type arrowCSV struct {
	schema *arrow.Schema
	mem    memory.Allocator
	batchBuf
}

func newArrowCSV(s *workloads.Schema, mem memory.Allocator) (Decoder, error) {
	if _, err := checkSchema(s); err != nil {
		return nil, err
	}
	return &arrowCSV{schema: s.Arrow, mem: mem}, nil
}

func (d *arrowCSV) Append(msg []byte) error {
	d.add(msg, '\n')
	return nil
}

func (d *arrowCSV) NewRecordBatch() (rec arrow.RecordBatch, err error) {
	// arrow/csv v18.8.0 panics on a line with more or fewer fields than
	// the schema: Reader.validate notes ErrMismatchFields, but read still
	// appends the line's fields, and the record builder then finds columns
	// of different lengths (fewer) or the converter index runs past the
	// schema (more).
	defer recoverParse(LibArrowCSV, &err)
	defer d.reset()
	if d.n == 0 {
		return emptyBatch(d.schema, d.mem), nil
	}
	rd := csv.NewReader(bytes.NewReader(d.buf), d.schema, csv.WithChunk(d.n+1), csv.WithAllocator(d.mem))
	defer rd.Release()
	if !rd.Next() {
		if err := rd.Err(); err != nil {
			return nil, parseErr(LibArrowCSV, err)
		}
		return nil, parseErrf(LibArrowCSV, "no record in %d messages", d.n)
	}
	if err := rd.Err(); err != nil {
		return nil, parseErr(LibArrowCSV, err)
	}
	rec = rd.RecordBatch()
	if int(rec.NumRows()) != d.n {
		return nil, parseErrf(LibArrowCSV, "%d messages gave %d records", d.n, rec.NumRows())
	}
	rec.Retain()
	return rec, nil
}

func (d *arrowCSV) Release() {}

// crlfToLF is what encoding/csv does to a quoted field: it reads CRLF as
// LF (the corpus puts "\r\n" into a few extra values).
func crlfToLF(r *workloads.Row) {
	for _, s := range []*string{&r.Channel, &r.URL, &r.Extra, &r.ItemName, &r.City, &r.State, &r.Email} {
		*s = strings.ReplaceAll(*s, "\r\n", "\n")
	}
}

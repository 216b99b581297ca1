package results

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/perf/benchfmt"

	"github.com/fastpathlab/fplab/cell"
)

// WriteRaw writes the OK rows of rows, in order, in the Go benchmark format
// so that stock benchstat reads the file: file-configuration lines (sorted
// by key; a line is emitted whenever a value changes, and "key:" deletes a
// key a later row lacks), then "BenchmarkLadder/<cell> <iters> <value>
// <unit> ..." with the units as the child printed them. Failed rows have no
// place in the format; they stay in the journal and the report.
func WriteRaw(w io.Writer, rows []Row) error {
	bw := benchfmt.NewWriter(w)
	for _, r := range rows {
		if !r.OK {
			continue
		}
		res, err := rawResult(r)
		if err != nil {
			return err
		}
		if err := bw.Write(res); err != nil {
			return fmt.Errorf("write raw: %w", err)
		}
	}
	return nil
}

func rawResult(r Row) (*benchfmt.Result, error) {
	if err := cell.CheckName(r.Cell); err != nil {
		return nil, fmt.Errorf("write raw: %w", err)
	}
	if len(r.Metrics) == 0 {
		return nil, fmt.Errorf("write raw: cell %s rep %d: OK row without metrics", r.Cell, r.Rep)
	}
	res := &benchfmt.Result{Name: benchfmt.Name(BenchName + "/" + r.Cell), Iters: int(r.Iters)}
	keys := make([]string, 0, len(r.Config))
	for k := range r.Config {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := strings.Join(strings.Fields(r.Config[k]), " ")
		if !validConfigKey(k) {
			return nil, fmt.Errorf("write raw: cell %s rep %d: config key %q is not a benchfmt key (lower-case first, no spaces or upper case, no ':')", r.Cell, r.Rep, k)
		}
		if v == "" {
			// An empty value would read back as a deletion.
			v = "unknown"
		}
		res.Config = append(res.Config, benchfmt.Config{Key: k, Value: []byte(v), File: true})
	}
	for _, m := range r.Metrics {
		if math.IsNaN(m.Value) || math.IsInf(m.Value, 0) {
			return nil, fmt.Errorf("write raw: cell %s rep %d: metric %s is %v", r.Cell, r.Rep, m.Unit, m.Value)
		}
		if m.Unit == "" || strings.ContainsFunc(m.Unit, unicode.IsSpace) {
			return nil, fmt.Errorf("write raw: cell %s rep %d: bad unit %q", r.Cell, r.Rep, m.Unit)
		}
		res.Values = append(res.Values, benchfmt.Value{Value: m.Value, Unit: m.Unit})
	}
	return res, nil
}

// validConfigKey mirrors benchfmt's key syntax: a lower-case first letter,
// then no space, no upper case and no ':'.
func validConfigKey(k string) bool {
	first, _ := utf8.DecodeRuneInString(k)
	if k == "" || !unicode.IsLower(first) {
		return false
	}
	for _, r := range k {
		if unicode.IsSpace(r) || unicode.IsUpper(r) || r == ':' {
			return false
		}
	}
	return true
}

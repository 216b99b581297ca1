package results

import (
	"bytes"
	"fmt"
	"math"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// BenchName is the benchmark every child prints; its sub-name is the cell.
const BenchName = "Ladder"

// Bench is the one BenchmarkLadder result of a child's stdout.
type Bench struct {
	// Name is the sub-benchmark name after "BenchmarkLadder/": the cell
	// (or micro-benchmark row) the child says it measured.
	Name string
	// Iters is the result's iteration count.
	Iters int64
	// Metrics are the values in printed order with the units as printed
	// (not benchfmt's tidied units).
	Metrics []Metric
	// Config is the file configuration in force at the result.
	Config map[string]string
}

// ParseBench reads one child's stdout (Go benchmark format) and returns its
// one BenchmarkLadder result. Anything but exactly one well-formed
// BenchmarkLadder result is an error.
func ParseBench(stdout []byte) (Bench, error) {
	rd := benchfmt.NewReader(bytes.NewReader(stdout), "stdout")
	var b Bench
	found := 0
	for rd.Scan() {
		switch rec := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			if strings.HasPrefix(lineAt(stdout, rec.Line), "Benchmark"+BenchName) {
				return Bench{}, fmt.Errorf("child output: %w", rec)
			}
		case *benchfmt.Result:
			name := rec.Name.String()
			sub, ok := strings.CutPrefix(name, BenchName+"/")
			if !ok || sub == "" {
				return Bench{}, fmt.Errorf("child output: unexpected benchmark Benchmark%s (want Benchmark%s/<cell>)", name, BenchName)
			}
			found++
			if found > 1 {
				return Bench{}, fmt.Errorf("child output: more than one Benchmark%s result (%s and %s)", BenchName, b.Name, sub)
			}
			b = Bench{Name: sub, Iters: int64(rec.Iters), Metrics: make([]Metric, 0, len(rec.Values)), Config: map[string]string{}}
			for _, v := range rec.Values {
				m := Metric{Unit: v.Unit, Value: v.Value}
				if v.OrigUnit != "" {
					m = Metric{Unit: v.OrigUnit, Value: v.OrigValue}
				}
				if math.IsNaN(m.Value) || math.IsInf(m.Value, 0) {
					return Bench{}, fmt.Errorf("child output: cell %s: metric %s is %v", sub, m.Unit, m.Value)
				}
				b.Metrics = append(b.Metrics, m)
			}
			for _, c := range rec.Config {
				if c.File {
					b.Config[c.Key] = string(c.Value)
				}
			}
		}
	}
	if err := rd.Err(); err != nil {
		return Bench{}, fmt.Errorf("child output: %w", err)
	}
	if found == 0 {
		return Bench{}, fmt.Errorf("child output has no Benchmark%s result", BenchName)
	}
	return b, nil
}

// lineAt returns the 1-based line n of data, or "".
func lineAt(data []byte, n int) string {
	for i := 1; len(data) > 0; i++ {
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		if i == n {
			return string(line)
		}
		data = rest
	}
	return ""
}

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

// ParseBench reads one child's stdout (Go benchmark format) and returns the
// cell (the sub-benchmark name after "BenchmarkLadder/"), the iteration
// count, the metrics in printed order with the units as printed (not
// benchfmt's tidied units), and the file configuration in force at the
// result. Anything but exactly one well-formed BenchmarkLadder result is an
// error.
func ParseBench(stdout []byte) (cell string, iters int64, metrics []Metric, config map[string]string, err error) {
	rd := benchfmt.NewReader(bytes.NewReader(stdout), "stdout")
	found := 0
	for rd.Scan() {
		switch rec := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			if strings.HasPrefix(lineAt(stdout, rec.Line), "Benchmark"+BenchName) {
				return "", 0, nil, nil, fmt.Errorf("results: child output: %v", rec)
			}
		case *benchfmt.Result:
			name := rec.Name.String()
			sub, ok := strings.CutPrefix(name, BenchName+"/")
			if !ok || sub == "" {
				return "", 0, nil, nil, fmt.Errorf("results: child output: unexpected benchmark Benchmark%s (want Benchmark%s/<cell>)", name, BenchName)
			}
			found++
			if found > 1 {
				return "", 0, nil, nil, fmt.Errorf("results: child output: more than one Benchmark%s result (%s and %s)", BenchName, cell, sub)
			}
			cell, iters = sub, int64(rec.Iters)
			metrics = make([]Metric, 0, len(rec.Values))
			for _, v := range rec.Values {
				m := Metric{Unit: v.Unit, Value: v.Value}
				if v.OrigUnit != "" {
					m = Metric{Unit: v.OrigUnit, Value: v.OrigValue}
				}
				if math.IsNaN(m.Value) || math.IsInf(m.Value, 0) {
					return "", 0, nil, nil, fmt.Errorf("results: child output: cell %s: metric %s is %v", sub, m.Unit, m.Value)
				}
				metrics = append(metrics, m)
			}
			config = make(map[string]string)
			for _, c := range rec.Config {
				if c.File {
					config[c.Key] = string(c.Value)
				}
			}
		}
	}
	if err := rd.Err(); err != nil {
		return "", 0, nil, nil, fmt.Errorf("results: child output: %v", err)
	}
	if found == 0 {
		return "", 0, nil, nil, fmt.Errorf("results: child output has no Benchmark%s result", BenchName)
	}
	return cell, iters, metrics, config, nil
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

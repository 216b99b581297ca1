package results

import (
	"reflect"
	"strings"
	"testing"
)

const childOut = `goos: linux
goarch: amd64
cpu: Intel(R) Xeon(R) CPU @ 2.20GHz
alloc: go
commit: 0123abc
some log line the child printed
BenchmarkLadder/path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off 2000000 250.5 ns/rec 3992000 rec/s 380.1 MB/s 410.2 cpu-ns/rec 0.5 B/rec 0.001 allocs/rec 150.2 peak-RSS-MB 500.1 window-ms
`

func TestParseBench(t *testing.T) {
	b, err := ParseBench([]byte(childOut))
	if err != nil {
		t.Fatal(err)
	}
	if b.Name != "path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off" {
		t.Errorf("name = %q", b.Name)
	}
	if b.Iters != 2000000 {
		t.Errorf("iters = %d", b.Iters)
	}
	// Units and values as printed, not benchfmt's tidied sec/rec or B/s.
	want := []Metric{{"ns/rec", 250.5}, {"rec/s", 3992000}, {"MB/s", 380.1}, {"cpu-ns/rec", 410.2},
		{"B/rec", 0.5}, {"allocs/rec", 0.001}, {"peak-RSS-MB", 150.2}, {"window-ms", 500.1}}
	if !reflect.DeepEqual(b.Metrics, want) {
		t.Errorf("metrics = %v\nwant %v", b.Metrics, want)
	}
	wantCfg := map[string]string{"goos": "linux", "goarch": "amd64", "cpu": "Intel(R) Xeon(R) CPU @ 2.20GHz", "alloc": "go", "commit": "0123abc"}
	if !reflect.DeepEqual(b.Config, wantCfg) {
		t.Errorf("config = %v\nwant %v", b.Config, wantCfg)
	}
}

func TestParseBenchErrors(t *testing.T) {
	line := "BenchmarkLadder/a=1 10 5 ns/rec\n"
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "no BenchmarkLadder result"},
		{"only config", "goos: linux\n", "no BenchmarkLadder result"},
		{"two results", line + strings.Replace(line, "a=1", "a=2", 1), "more than one"},
		{"malformed", "BenchmarkLadder/a=1 10 5\n", "missing units"},
		{"bad iters", "BenchmarkLadder/a=1 ten 5 ns/rec\n", "iteration count"},
		{"other benchmark", "BenchmarkOther 10 5 ns/op\n" + line, "unexpected benchmark"},
		{"no cell", "BenchmarkLadder 10 5 ns/op\n", "unexpected benchmark"},
		{"nan", "BenchmarkLadder/a=1 10 NaN ns/rec\n", "NaN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseBench([]byte(tc.in))
			if err == nil {
				t.Fatal("no error")
			}
			// Library errors carry no package prefix; the child's
			// output is named, so a journal reason says what was bad.
			if msg := err.Error(); !strings.Contains(msg, tc.want) || !strings.HasPrefix(msg, "child output") {
				t.Errorf("error %q, want one starting \"child output\" containing %q", msg, tc.want)
			}
		})
	}
}

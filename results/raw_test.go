package results

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/internal/golden"
	"golang.org/x/perf/benchfmt"
)

func rawRows() []Row {
	return []Row{
		{Cell: "path=fast/alloc=go", Rep: 0, OK: true, Iters: 2000000,
			Metrics: []Metric{{"rec/s", 3992000}, {"ns/rec", 250.5}, {"MB/s", 380.1}},
			Config:  map[string]string{"goos": "linux", "alloc-version": "go1.26", "commit": "abc"}},
		{Cell: "path=fast/alloc=go", Rep: 1, Reason: "timeout"},
		{Cell: "path=fast/alloc=go", Rep: 2, OK: true, Iters: 2000000,
			Metrics: []Metric{{"rec/s", 3990000}, {"ns/rec", 250.6}, {"MB/s", 380}},
			Config:  map[string]string{"goos": "linux", "alloc-version": "go1.26", "commit": "abc"}},
		{Cell: "path=fast/alloc=mimalloc2", Rep: 0, OK: true, Iters: 1999999,
			Metrics: []Metric{{"rec/s", 4100000}, {"ns/rec", 243.9}, {"MB/s", 390.4}},
			Config:  map[string]string{"goos": "linux", "alloc-version": "mimalloc 2.1.7", "commit": "abc", "librdkafka": "2.11.1"}},
		{Cell: "path=rowwise/alloc=go", Rep: 0, OK: true, Iters: 2000000,
			Metrics: []Metric{{"rec/s", 1000000}, {"ns/rec", 1000}, {"MB/s", 95.2}},
			Config:  map[string]string{"goos": "linux", "commit": "abc"}},
	}
}

func TestWriteRaw(t *testing.T) {
	rows := rawRows()
	var buf bytes.Buffer
	if err := WriteRaw(&buf, rows); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "raw.golden", buf.Bytes())

	// Read it back as benchstat would: every OK row, with exactly its
	// config in force and its values.
	var ok []Row
	for _, r := range rows {
		if r.OK {
			ok = append(ok, r)
		}
	}
	rd := benchfmt.NewReader(bytes.NewReader(buf.Bytes()), "raw.txt")
	i := 0
	for rd.Scan() {
		res, isRes := rd.Result().(*benchfmt.Result)
		if !isRes {
			t.Fatalf("unexpected record %v", rd.Result())
		}
		if i >= len(ok) {
			t.Fatalf("more results than OK rows")
		}
		want := ok[i]
		if got := res.Name.String(); got != "Ladder/"+want.Cell {
			t.Errorf("result %d name %s, want Ladder/%s", i, got, want.Cell)
		}
		if int64(res.Iters) != want.Iters {
			t.Errorf("result %d iters %d, want %d", i, res.Iters, want.Iters)
		}
		cfg := map[string]string{}
		for _, c := range res.Config {
			cfg[c.Key] = string(c.Value)
		}
		if !reflect.DeepEqual(cfg, want.Config) {
			t.Errorf("result %d config %v, want %v", i, cfg, want.Config)
		}
		var ms []Metric
		for _, v := range res.Values {
			if v.OrigUnit != "" {
				ms = append(ms, Metric{v.OrigUnit, v.OrigValue})
			} else {
				ms = append(ms, Metric{v.Unit, v.Value})
			}
		}
		if !reflect.DeepEqual(ms, want.Metrics) {
			t.Errorf("result %d metrics %v, want %v", i, ms, want.Metrics)
		}
		i++
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	if i != len(ok) {
		t.Errorf("read %d results, want %d", i, len(ok))
	}
}

func TestWriteRawRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(*Row)
		want string
	}{
		{"upper-case key", func(r *Row) { r.Config["Goos"] = "x" }, "config key"},
		{"space in cell", func(r *Row) { r.Cell = "a=1 b" }, "white space"},
		{"no metrics", func(r *Row) { r.Metrics = nil }, "without metrics"},
		{"space in unit", func(r *Row) { r.Metrics[0].Unit = "rec s" }, "bad unit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rawRows()[0]
			r.Config = map[string]string{"goos": "linux"}
			r.Metrics = []Metric{{"rec/s", 1}}
			tc.mod(&r)
			err := WriteRaw(&bytes.Buffer{}, []Row{r})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

package ladder

import (
	"bytes"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
)

func TestProgressPlainLines(t *testing.T) {
	var b bytes.Buffer
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := newProgress(&b, 4, t0)
	e := Entry{Cell: cell.Cell{Path: "fast", Format: "raw", Batch: 8192, Brokers: 3, Alloc: "go", Cluster: "embedded"}}
	p.step(t0.Add(10*time.Second), e, "4150000 rec/s")
	e.Warmup = true
	p.step(t0.Add(20*time.Second), e, "FAILED exit status 1")
	p.finish()
	want := "cell 1/4 elapsed 10s ETA 30s last: path=fast/format=raw/batch=8192/brokers=3/alloc=go/crc=off 4150000 rec/s\n" +
		"cell 2/4 elapsed 20s ETA 20s last: path=fast/format=raw/batch=8192/brokers=3/alloc=go/crc=off (warm-up) FAILED exit status 1\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestProgressTerminalRewritesLine(t *testing.T) {
	var b bytes.Buffer
	t0 := time.Now()
	p := &progress{w: &b, tty: true, total: 2, start: t0}
	e := Entry{Cell: cell.Cell{Path: "fast", Format: "raw", Batch: 1, Brokers: 1, Alloc: "go", Cluster: "embedded"}}
	p.step(t0, e, "1 rec/s")
	p.step(t0, e, "2 rec/s")
	p.finish()
	got := b.String()
	if bytes.Count(b.Bytes(), []byte("\r\x1b[K")) != 2 || bytes.Count(b.Bytes(), []byte("\n")) != 1 || got[len(got)-1] != '\n' {
		t.Errorf("%q", got)
	}
}

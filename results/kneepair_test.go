package results

import (
	"fmt"
	"strings"
	"testing"
)

func TestKneePairs(t *testing.T) {
	bounded := func(path, batch string) string {
		return "path=" + path + "/format=json/batch=" + batch + "/brokers=1/alloc=go/crc=off/ckpt=1s"
	}
	live := func(path, batch, rate string) string {
		return "path=" + path + "/format=json/batch=" + batch + "/brokers=1/alloc=go/crc=off/mode=live/rate=" + rate + "/linger=10ms"
	}
	rows := []Row{
		// fast: the checkpoint knee is 8192, the latency knee 1024 at
		// 100000 rec/s and 65536 at 10000 rec/s.
		kneeRow(bounded("fast", "1024"), 0, 1e6, 20), kneeRow(bounded("fast", "8192"), 0, 3e6, 60), kneeRow(bounded("fast", "65536"), 0, 4e6, 300),
		latRow(live("fast", "1024", "100000"), 0, 30), latRow(live("fast", "8192", "100000"), 0, 130), latRow(live("fast", "65536", "100000"), 0, 400),
		latRow(live("fast", "1024", "10000"), 0, 3), latRow(live("fast", "8192", "10000"), 0, 9), latRow(live("fast", "65536", "10000"), 0, 50),
		// shallow: both pick 8192; franz has no checkpoint knee within
		// budget, so no pair.
		kneeRow(bounded("shallow", "1024"), 0, 1e6, 20), kneeRow(bounded("shallow", "8192"), 0, 2e6, 60),
		latRow(live("shallow", "1024", "10000"), 0, 5), latRow(live("shallow", "8192", "10000"), 0, 60),
		kneeRow(bounded("franz", "1024"), 0, 1e6, 200),
		latRow(live("franz", "1024", "10000"), 0, 5),
		// brokers=3 holds another shared setting: no pair with brokers=1.
		latRow("path=fast/format=json/batch=1024/brokers=3/alloc=go/crc=off/mode=live/rate=10000/linger=10ms", 0, 5),
	}
	a, err := Analyze(rows, AnalysisOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range a.KneePairs {
		b, which := p.Binding()
		got = append(got, fmt.Sprintf("%s [%s] %s: ckpt %d, latency %d -> %d %s",
			p.Checkpoint.Path, p.Shared, p.Latency.Setting, p.Checkpoint.Batch, p.Latency.Batch, b, which))
	}
	want := []string{
		"shallow [brokers=1 alloc=go crc=off] brokers=1 alloc=go crc=off mode=live rate=10000 linger=10ms: ckpt 8192, latency 8192 -> 8192 both",
		"fast [brokers=1 alloc=go crc=off] brokers=1 alloc=go crc=off mode=live rate=10000 linger=10ms: ckpt 8192, latency 65536 -> 8192 checkpoint",
		"fast [brokers=1 alloc=go crc=off] brokers=1 alloc=go crc=off mode=live rate=100000 linger=10ms: ckpt 8192, latency 1024 -> 1024 latency",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("pairs\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

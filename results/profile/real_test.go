package profile

import (
	"math"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	pprofile "github.com/google/pprof/profile"
)

// spinSink keeps cpuSpin's work observable so it is not optimised away.
var spinSink uint64

// cpuSpin is a CPU-bound loop with no allocation: it runs for d of wall
// time (no assertion depends on how long it takes).
func cpuSpin(d time.Duration) {
	x := uint64(88172645463325252)
	for end := time.Now().Add(d); time.Now().Before(end); {
		for range 1 << 16 {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
		}
	}
	spinSink += x
}

// profileSpin writes a real CPU profile of cpuSpin with runtime/pprof,
// trying again (longer) until cpuSpin itself is the leaf of a sample: the
// few samples a loaded process gets can all land in the runtime (time.Now,
// the scheduler), which the breakdown rightly charges to the runtime.
func profileSpin(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cpu.pprof")
	for try := 1; try <= 3; try++ {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			t.Skipf("CPU profiling unavailable: %v", err)
		}
		cpuSpin(time.Duration(try) * 200 * time.Millisecond)
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		p, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if hasLeaf(p, ".cpuSpin") {
			return path
		}
	}
	t.Skip("no CPU sample with cpuSpin as its leaf in three tries; the machine is too loaded")
	return ""
}

func TestRealCPUProfile(t *testing.T) {
	p, err := Load(profileSpin(t))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Buckets(p)
	if err != nil {
		t.Fatal(err)
	}
	if b.Kind != KindCPU || b.Total[0] <= 0 || b.Duration <= 0 {
		t.Fatalf("kind %v total %d duration %v", b.Kind, b.Total[0], b.Duration)
	}
	var sum float64
	var charged int64
	for _, s := range b.Buckets {
		sum += s.Fraction[0]
		charged += s.Value[0]
	}
	if math.Abs(sum-1) > 1e-9 || charged != b.Total[0] {
		t.Errorf("fractions sum to %v, buckets hold %d of %d", sum, charged, b.Total[0])
	}
	// The spin loop is this package's own code: no owner rule names it,
	// and its leaf is not in the runtime, so it is "other".
	found := false
	for _, f := range b.Bucket(BucketOther).Top {
		found = found || strings.HasSuffix(f.Name, ".cpuSpin")
	}
	if !found {
		t.Errorf("cpuSpin not among other's top functions: %+v", b.Bucket(BucketOther).Top)
	}
	var sb strings.Builder
	if err := WriteText(&sb, b.PerUnit(1)); err != nil || !strings.Contains(sb.String(), "librdkafka's own threads") {
		t.Errorf("rendering a real profile: %v", err)
	}
}

// hasLeaf reports whether any sample of p has its leaf (the innermost
// frame of its first location) in a function whose name ends in suffix.
func hasLeaf(p *pprofile.Profile, suffix string) bool {
	for _, s := range p.Sample {
		if len(s.Location) == 0 || len(s.Location[0].Line) == 0 {
			continue
		}
		if f := s.Location[0].Line[0].Function; f != nil && strings.HasSuffix(f.Name, suffix) {
			return true
		}
	}
	return false
}

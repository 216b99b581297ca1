package profile

import (
	"math"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/results/resultstest"
	"github.com/google/pprof/profile"
)

func sumFractions(b Breakdown, i int) float64 {
	s := 0.0
	for _, st := range b.Buckets {
		s += st.Fraction[i]
	}
	return s
}

func TestBucketsCPU(t *testing.T) {
	b, err := Buckets(resultstest.CPUProfile(t))
	if err != nil {
		t.Fatal(err)
	}
	if b.Kind != KindCPU || len(b.Values) != 1 || b.Values[0] != (ValueType{"cpu", "nanoseconds"}) {
		t.Fatalf("kind %v values %v", b.Kind, b.Values)
	}
	want := map[Bucket]int64{
		BucketCgo: 40e6, BucketDecode: 40e6, BucketArrow: 12e6, BucketVerify: 15e6,
		BucketGC: 10e6, BucketRuntime: 4e6, BucketOther: 3e6, BucketClient: 0,
	}
	var total int64
	for k, v := range want {
		if got := b.Bucket(k).Value[0]; got != v {
			t.Errorf("%v: %d ns, want %d", k, got, v)
		}
		total += v
	}
	if b.Total[0] != total {
		t.Errorf("total %d, want %d", b.Total[0], total)
	}
	if s := sumFractions(b, 0); math.Abs(s-1) > 1e-12 {
		t.Errorf("fractions sum to %v", s)
	}
	if len(b.Buckets) != len(AllBuckets()) {
		t.Errorf("%d buckets, want every bucket", len(b.Buckets))
	}
	dec := b.Bucket(BucketDecode)
	if dec.Funcs != 2 || len(dec.Top) != 2 || dec.Top[0].Name != wl+"scanJSONString" || dec.Top[0].Value[0] != 25e6 {
		t.Errorf("decode top %+v (funcs %d)", dec.Top, dec.Funcs)
	}
}

func TestBucketsTopLimit(t *testing.T) {
	b, err := BucketsWith(resultstest.CPUProfile(t), Options{Top: 1})
	if err != nil {
		t.Fatal(err)
	}
	if v := b.Bucket(BucketVerify); len(v.Top) != 1 || v.Funcs != 2 || v.Top[0].Name != wl+"valueHash" {
		t.Errorf("verify top %+v funcs %d, want only the larger valueHash of 2", v.Top, v.Funcs)
	}
	none, err := BucketsWith(resultstest.CPUProfile(t), Options{Top: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range none.Buckets {
		if len(s.Top) != 0 {
			t.Errorf("%v keeps %d functions with Top -1", s.Bucket, len(s.Top))
		}
	}
}

func TestBucketsAllocs(t *testing.T) {
	b, err := Buckets(resultstest.AllocsProfile(t))
	if err != nil {
		t.Fatal(err)
	}
	if b.Kind != KindAllocs || len(b.Values) != 2 || b.Values[0].Type != "alloc_space" || b.Values[1].Type != "alloc_objects" {
		t.Fatalf("kind %v values %v", b.Kind, b.Values)
	}
	if got := b.Bucket(BucketArrow).Value; got[0] != 48<<20 || got[1] != 1200 {
		t.Errorf("arrow %v", got)
	}
	if got := b.Bucket(BucketCgo).Value; got[0] != 12<<20 || got[1] != 250000 {
		t.Errorf("cgo %v", got)
	}
	for i := range b.Values {
		if s := sumFractions(b, i); math.Abs(s-1) > 1e-12 {
			t.Errorf("%s fractions sum to %v", b.Values[i].Type, s)
		}
	}
}

func TestBucketsRejects(t *testing.T) {
	goroutine := resultstest.Profile(t, []string{"goroutine/count"}, []resultstest.Sample{{Stack: []string{"runtime.gopark"}, Values: []int64{3}}})
	bad := resultstest.Profile(t, []string{"cpu/nanoseconds"}, []resultstest.Sample{{Stack: []string{"runtime.futex"}, Values: []int64{3}}})
	bad.Sample[0].Value = []int64{1, 2}
	for _, c := range []struct {
		what string
		p    *profile.Profile
		want string
	}{
		{"nil", nil, "no profile"},
		{"goroutine profile", goroutine, "sample types: goroutine/count"},
		{"bad sample", bad, "invalid profile: mismatch"},
	} {
		_, err := Buckets(c.p)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err %v, want one line holding %q", c.what, err, c.want)
		}
	}
}

func TestBucketsEmptyProfile(t *testing.T) {
	b, err := Buckets(resultstest.Profile(t, []string{"samples/count", "cpu/nanoseconds"}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if b.Total[0] != 0 || sumFractions(b, 0) != 0 {
		t.Errorf("empty profile: total %d fractions %v", b.Total[0], sumFractions(b, 0))
	}
	var sb strings.Builder
	if err := WriteText(&sb, b); err != nil || !strings.Contains(sb.String(), "total") {
		t.Errorf("rendering an empty breakdown: %v\n%s", err, sb.String())
	}
}

func TestPerUnit(t *testing.T) {
	b, _ := Buckets(resultstest.CPUProfile(t))
	if got := b.PerUnit(1000).Work; got != 1000 {
		t.Errorf("PerUnit(1000).Work = %d", got)
	}
	if got := b.PerUnit(1000).PerUnit(-5).Work; got != 0 {
		t.Errorf("PerUnit(-5) keeps Work %d", got)
	}
	if b.Work != 0 {
		t.Error("PerUnit changed its receiver")
	}
}

package profile

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// Kind is what a profile measures.
type Kind int

const (
	// KindCPU is a CPU profile: the "cpu" sample type in nanoseconds.
	KindCPU Kind = iota
	// KindAllocs is a heap profile read for what was allocated over the
	// whole run: alloc_space (bytes) and alloc_objects (count).
	KindAllocs
)

func (k Kind) String() string {
	if k == KindAllocs {
		return "allocs"
	}
	return "cpu"
}

// ValueType is one sample value a Breakdown carries.
type ValueType struct {
	Type string // "cpu", "alloc_space", "alloc_objects"
	Unit string // "nanoseconds", "bytes", "count"
}

// DefaultTop is how many functions per bucket Buckets keeps.
const DefaultTop = 5

// Options tune BucketsWith.
type Options struct {
	// Top is how many functions per bucket to keep (DefaultTop when 0,
	// none when negative).
	Top int
}

// FuncStat is one function's share of a bucket: the summed values of the
// samples it decided (see Classifier.Classify).
type FuncStat struct {
	Name  string
	Value []int64 // per Breakdown.Values
}

// BucketStat is one bucket of a Breakdown.
type BucketStat struct {
	Bucket   Bucket
	Value    []int64    // per Breakdown.Values
	Fraction []float64  // Value[i] / Breakdown.Total[i]; 0 when the total is 0
	Top      []FuncStat // the functions that decided most of Value[0], largest first
	Funcs    int        // distinct deciding functions, Top's included
}

// Breakdown is a profile's values charged to buckets.
type Breakdown struct {
	Label    string // what the profile is of (a cell name); set by the caller
	Kind     Kind
	Values   []ValueType
	Total    []int64      // per Values
	Buckets  []BucketStat // one per bucket, in AllBuckets order
	Duration time.Duration
	// Work is the number of units of work (records) the profile covers,
	// set by PerUnit; 0 means unknown and renderers show no per-unit
	// column.
	Work int64
}

// WorkUnit is the unit of Breakdown.Work.
const WorkUnit = "rec"

// PerUnit returns b normalised by n units of work (records): renderers and
// Diff then give each value per record (ns/rec, B/rec, allocs/rec). n <= 0
// removes the normalisation.
func (b Breakdown) PerUnit(n int64) Breakdown {
	if n < 0 {
		n = 0
	}
	b.Work = n
	return b
}

// Bucket returns the stat of one bucket (zero values for a bucket out of
// range).
func (b Breakdown) Bucket(k Bucket) BucketStat {
	for _, s := range b.Buckets {
		if s.Bucket == k {
			return s
		}
	}
	return BucketStat{Bucket: k, Value: make([]int64, len(b.Values)), Fraction: make([]float64, len(b.Values))}
}

// Buckets charges every sample of p to one bucket, for the "cpu" sample
// type of a CPU profile or alloc_space and alloc_objects of a heap
// profile, keeping DefaultTop functions per bucket.
func Buckets(p *profile.Profile) (Breakdown, error) {
	return BucketsWith(p, Options{})
}

// BucketsWith is Buckets with options.
func BucketsWith(p *profile.Profile, o Options) (Breakdown, error) {
	if p == nil {
		return Breakdown{}, errors.New("no profile")
	}
	if err := p.CheckValid(); err != nil {
		return Breakdown{}, fmt.Errorf("invalid profile: %w", err)
	}
	kind, idx, err := pickValues(p)
	if err != nil {
		return Breakdown{}, err
	}
	top := o.Top
	if top == 0 {
		top = DefaultTop
	}
	b := Breakdown{Kind: kind, Total: make([]int64, len(idx)), Duration: time.Duration(p.DurationNanos)}
	for _, i := range idx {
		b.Values = append(b.Values, ValueType{Type: p.SampleType[i].Type, Unit: p.SampleType[i].Unit})
	}
	sums := make([][]int64, numBuckets)
	funcs := make([]map[string][]int64, numBuckets)
	for k := range sums {
		sums[k] = make([]int64, len(idx))
		funcs[k] = map[string][]int64{}
	}
	c := NewClassifier()
	for _, s := range p.Sample {
		stack := Stack(s)
		k, at := c.Classify(stack)
		name := "(no stack)"
		if at >= 0 {
			name = label(stack[at])
		}
		if allZero(s.Value, idx) {
			continue
		}
		fv := funcs[k][name]
		if fv == nil {
			fv = make([]int64, len(idx))
			funcs[k][name] = fv
		}
		for j, i := range idx {
			v := s.Value[i]
			sums[k][j] += v
			fv[j] += v
			b.Total[j] += v
		}
	}
	for k := range numBuckets {
		st := BucketStat{Bucket: Bucket(k), Value: sums[k], Fraction: make([]float64, len(idx)), Funcs: len(funcs[k])}
		for j := range idx {
			if b.Total[j] != 0 {
				st.Fraction[j] = float64(sums[k][j]) / float64(b.Total[j])
			}
		}
		st.Top = topFuncs(funcs[k], top)
		b.Buckets = append(b.Buckets, st)
	}
	return b, nil
}

// pickValues finds the sample values to charge: "cpu" for a CPU profile,
// else alloc_space and alloc_objects.
func pickValues(p *profile.Profile) (Kind, []int, error) {
	find := func(typ string) int {
		for i, st := range p.SampleType {
			if st != nil && st.Type == typ {
				return i
			}
		}
		return -1
	}
	if i := find("cpu"); i >= 0 {
		return KindCPU, []int{i}, nil
	}
	space, objects := find("alloc_space"), find("alloc_objects")
	if space >= 0 && objects >= 0 {
		return KindAllocs, []int{space, objects}, nil
	}
	var have []string
	for _, st := range p.SampleType {
		if st != nil {
			have = append(have, st.Type+"/"+st.Unit)
		}
	}
	return 0, nil, fmt.Errorf("neither a cpu profile (cpu sample type) nor a heap profile (alloc_space and alloc_objects); sample types: %s", orNone(strings.Join(have, ", ")))
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// topFuncs returns the n largest functions by first value (then name).
func topFuncs(m map[string][]int64, n int) []FuncStat {
	if n <= 0 || len(m) == 0 {
		return nil
	}
	all := make([]FuncStat, 0, len(m))
	for name, v := range m {
		all = append(all, FuncStat{Name: name, Value: v})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].Value[0] != all[j].Value[0] {
			return all[i].Value[0] > all[j].Value[0]
		}
		return all[i].Name < all[j].Name
	})
	if len(all) > n {
		all = all[:n]
	}
	return all
}

// allZero reports whether a sample carries nothing in the charged values
// (heap profiles hold such samples); it then names no function.
func allZero(v []int64, idx []int) bool {
	for _, i := range idx {
		if v[i] != 0 {
			return false
		}
	}
	return true
}

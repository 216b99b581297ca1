package ladder

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/headline"
	"github.com/fastpathlab/fplab/results/resultstest"
)

// headlineBase is a small spec of two paths, two formats and the
// checkpoint axis, with a headline list to append.
const headlineBase = "path: [shallow, fast]\nformat: [raw, json]\nbatch: [8192]\nbrokers: [1]\nalloc: [go]\ncrc: [off]\n" +
	"records: 1000\nrepetitions: 1\nwarmup: 0\nseed: 1\ntimeout: 10s\ncheckpoint: [off, 1s]\nfailures: 1\nheadline:\n"

// TestHeadlineSpec: comparisons of what the spec runs load and are kept in
// order; each one naming what it does not run, or not parsing, is refused
// with one line at the headline field's line (a comparison that does not
// parse: at its own line).
func TestHeadlineSpec(t *testing.T) {
	s, err := ParseSpec("x.yaml", []byte(headlineBase+"  - fast/shallow by format\n  - ckpt=1s/ckpt=off on fast\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"fast/shallow by format", "ckpt=1s/ckpt=off on fast"}; !reflect.DeepEqual(s.Headline, want) {
		t.Errorf("Headline = %q, want %q", s.Headline, want)
	}
	for _, c := range []struct{ entry, want string }{
		{"  - fast/flink\n", `x.yaml:14: headline: headline "fast/flink": path=flink is not run by this spec`},
		{"  - fast/shallow on avro\n", `x.yaml:14: headline: headline "fast/shallow on avro": on format=avro is not run by this spec`},
		{"  - fast/shallow\n  - fast\n", `x.yaml:16: headline: headline "fast": "fast" is not A/B`},
	} {
		_, err := ParseSpec("x.yaml", []byte(headlineBase+c.entry))
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: err = %v\nwant %s", c.entry, err, c.want)
		}
	}
}

// TestShippedHeadlinesPair: every shipped spec's headline pairs cells the
// spec runs. Each cell gets five repetitions of rec/s only, so a headline
// in another unit may lack its unit, but none may lack its cells: a
// covering spec (smoke) has no such pairs and names no headline.
func TestShippedHeadlinesPair(t *testing.T) {
	files, err := filepath.Glob("specs/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		s, err := LoadSpec(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Headline) == 0 {
			continue
		}
		cells, err := Expand(s)
		if err != nil {
			t.Fatal(err)
		}
		var rows []results.Row
		for _, c := range cells {
			for rep := range 5 {
				rows = append(rows, resultstest.OK(c.Name(), rep, resultstest.Metric(results.UnitRecPerSec, 1e6+1e4*float64(rep))))
			}
		}
		a, err := results.Analyze(rows, results.AnalysisOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range s.Headline {
			c, err := headline.Parse(h)
			if err != nil {
				t.Fatal(err)
			}
			rs, err := headline.Compute(a, []headline.Comparison{c})
			if err != nil || len(rs) == 0 {
				t.Errorf("%s: %q: %d rows, %v", filepath.Base(f), h, len(rs), err)
			}
			for _, r := range rs {
				if r.Verdict == headline.Missing && !strings.Contains(r.Why, " reports no ") {
					t.Errorf("%s: %q: %s", filepath.Base(f), h, r.Why)
				}
			}
		}
	}
}

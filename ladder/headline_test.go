package ladder

import (
	"reflect"
	"testing"
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

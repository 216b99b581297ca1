package consume_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/source/consume"
)

// TestPathsAreTheCellVocabulary pins consume's paths to cell: every
// path a spec may name except the counting references, in the same order.
func TestPathsAreTheCellVocabulary(t *testing.T) {
	var want []string
	for _, p := range cell.Paths() {
		if !cell.CountingPath(p) {
			want = append(want, p)
		}
	}
	var got []string
	for _, p := range consume.Paths() {
		got = append(got, string(p))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("consume.Paths() = %v, want cell.Paths() without the references = %v", got, want)
	}
	for _, p := range consume.Paths() {
		if q, err := consume.ParsePath(string(p)); err != nil || q != p {
			t.Errorf("ParsePath(%q) = %q, %v", p, q, err)
		}
	}
	for _, bad := range []string{cell.PathJava, cell.PathCeiling, "", "Fast", "slow"} {
		if _, err := consume.ParsePath(bad); err == nil || !strings.HasPrefix(err.Error(), "unknown path") {
			t.Errorf("ParsePath(%q) = %v, want an unknown-path error", bad, err)
		}
	}
}

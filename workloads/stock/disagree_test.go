package stock

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/workloads"
)

// TestDisagreements runs the fuzz seeds (corpus records and corrupted
// variants) through every route and counts the messages that one side
// accepts and the other rejects, by class: the reason the rejecting side
// gives. go test -v -run Disagreements prints the table (docs/decoders.md sums it
// up). A few classes are asserted, so the documentation cannot drift from
// the libraries.
func TestDisagreements(t *testing.T) {
	for _, f := range Formats() {
		counts := map[string]int{}
		for _, sd := range seeds(t, f) {
			name := "bid"
			if sd.wide {
				name = "bid-wide"
			}
			d := newDiffer(t, f, name)
			outs := d.check(t, sd.msg)
			for i, o := range outs[1:] {
				lib := d.routes[i+1].Lib
				switch lab := outs[0]; {
				case lab.err != nil && o.err == nil:
					counts[fmt.Sprintf("%s accepts, lab rejects: %s", lib, reason(lab.err, ""))]++
				case lab.err == nil && o.err != nil:
					counts[fmt.Sprintf("lab accepts, %s rejects: %s", lib, reason(o.err, lib))]++
				case lab.err == nil && o.hash != lab.hash:
					counts[fmt.Sprintf("both accept, %s decodes other values: %s", lib, valueClass(f, lib, d.schema, sd.msg))]++
				}
			}
			for _, dec := range d.decs {
				dec.Release()
			}
		}
		var lines []string
		for k, n := range counts {
			lines = append(lines, fmt.Sprintf("%4d  %s", n, k))
		}
		sort.Strings(lines)
		t.Logf("%s: %d classes\n%s", f, len(lines), strings.Join(lines, "\n"))
		for _, want := range mustDisagree[f] {
			found := false
			for k := range counts {
				found = found || strings.HasPrefix(k, want)
			}
			if !found {
				t.Errorf("%s: no seed shows the documented class %q", f, want)
			}
		}
	}
}

// mustDisagree are documented classes (docs/decoders.md) the seeds must show.
var mustDisagree = map[workloads.Format][]string{
	workloads.FormatJSON: {
		"encoding-json accepts, lab rejects: json: expected a string value",
		"goccy accepts, lab rejects: json: missing column",
		"arrow-unmarshal accepts, lab rejects: value is not a N-bit integer",
		"lab accepts, arrow-unmarshal rejects: key",
		"both accept, encoding-json decodes other values: case-folded key",
		"both accept, sonic decodes other values: case-folded key",
		"sonic accepts, lab rejects: string is not valid UTF-N",
	},
	workloads.FormatAvro: {
		"hamba accepts, lab rejects: string is not valid UTF-N",
	},
	workloads.FormatProtobuf: {
		"protobuf-gen accepts, lab rejects: protobuf: bad field tag",
		"dynamicpb accepts, lab rejects: protobuf: wrong wire type for field",
		"vtprotobuf accepts, lab rejects: string is not valid UTF-N",
	},
	workloads.FormatCSV: {
		"arrow-csv accepts, lab rejects: value is not a N-bit integer",
		"both accept, arrow-csv decodes other values: CRLF in a quoted field",
	},
}

var (
	digits = regexp.MustCompile(`[0-9]+`)
	quoted = regexp.MustCompile(`"[^"]*"|'[^']*'`)
)

// reason is err's message without the ErrParse and lib prefixes, numbers
// and quoted text, so messages of one class read alike.
func reason(err error, lib string) string {
	s := strings.TrimPrefix(err.Error(), workloads.ErrParse.Error()+": ")
	if lib != "" {
		s = strings.TrimPrefix(s, lib+": ")
	}
	s = quoted.ReplaceAllString(s, "…")
	s = digits.ReplaceAllString(s, "N")
	if len(s) > 90 {
		s = s[:90]
	}
	return s
}

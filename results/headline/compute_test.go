package headline

import (
	"math"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/results/resultstest"
)

// want is one expected row: its label, verdict, cells and (a part of)
// its Why.
type want struct {
	label    string
	verdict  Verdict
	num, den string
	why      string
}

func TestCompute(t *testing.T) {
	a := fixtureAnalysis(t)
	for _, tt := range []struct {
		headline string
		rows     []want
	}{
		{"fast/flink by format", []want{
			{"format=json", Resolved, fastJSON, flinkJSON, ""},
			{"format=avro", Resolved, fastAvro, flinkAvro, ""},
			{"format=protobuf", Resolved, fastProto, flinkProto, ""},
			{"format=csv", Missing, fastCSV, flinkCSV, "path=flink with format=csv failed every rep: timeout after 3m0s"},
			// No flink cell on raw at all (a spec that excludes it): no
			// row, while other formats have pairs.
		}},
		// Overlapping samples; the A/A cells of fast raw are no part of it.
		{"fast/java on raw", []want{{"", NotSignificant, fastRaw, javaRaw, "p=0.69 is not below 0.05"}}},
		// Significant, but the interval reaches into the 4.9% floor.
		{"fast/decoder=none on json", []want{{"", WithinFloor, fastJSON, fastTwin, "the interval reaches into the 4.9% A/A floor"}}},
		// One group, two pairs: labelled by the part they differ on.
		{"mimalloc3/go", []want{
			{"batch=1024", WithinFloor, fastMi1K, fastJSON1K, ""},
			{"batch=8192", Resolved, fastMi, fastJSON, ""},
		}},
		{"mimalloc3/go in peak-RSS-MB", []want{
			{"batch=1024", Resolved, fastMi1K, fastJSON1K, ""},
			{"batch=8192", Resolved, fastMi, fastJSON, ""},
		}},
		{"crc=on/crc=off", []want{{"", TooFewReps, fastCRC, fastJSON, "n=2+5 is too few for a 95% interval"}}},
		{"ckpt=1s/ckpt=off", []want{{"", Resolved, fastCkpt, fastJSON, ""}}},
		// The ceiling ran at another batch size: named, not pooled.
		{"fast/ceiling on avro", []want{{"", Missing, fastAvro, "", "no path=ceiling cell with format=avro, batch=8192 but one with batch=1024"}}},
		// Every pair lacks the unit on one side or the other.
		{"fast/flink in peak-RSS-MB", []want{
			{"format=json", Missing, fastJSON, flinkJSON, "path=flink with format=json reports no peak-RSS-MB"},
			{"format=avro", Missing, fastAvro, flinkAvro, "path=fast with format=avro reports no peak-RSS-MB"},
			{"format=protobuf", Missing, fastProto, flinkProto, "path=fast with format=protobuf reports no peak-RSS-MB"},
			{"format=csv", Missing, fastCSV, flinkCSV, "path=fast with format=csv reports no peak-RSS-MB"},
		}},
		// A by axis: the groups where both sides ran.
		{"fast/flink by batch on json", []want{
			// batch=1024 has no flink cell: not run there, no row.
			{"batch=8192", Resolved, fastJSON, flinkJSON, ""},
		}},
		// Values the run never had: the vocabulary names their axis.
		{"shallow/rowwise", []want{{"", Missing, "", "", "no path=shallow or path=rowwise cell"}}},
		{"fast/flink on kafka", []want{{"", Missing, "", "", "no path=fast or path=flink cell with cluster=kafka"}}},
	} {
		c, err := Parse(tt.headline)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := Compute(a, []Comparison{c})
		if err != nil {
			t.Errorf("%s: %v", tt.headline, err)
			continue
		}
		if len(rows) != len(tt.rows) {
			t.Errorf("%s: %d rows, want %d:\n%s", tt.headline, len(rows), len(tt.rows), dump(rows))
			continue
		}
		for i, w := range tt.rows {
			r := rows[i]
			if got := joinParts(r.Label, " "); got != w.label || r.Verdict != w.verdict || r.Num != w.num || r.Den != w.den || !strings.Contains(r.Why, w.why) {
				t.Errorf("%s row %d:\n got %s %v %s / %s: %s\nwant %s %v %s / %s: %s", tt.headline, i,
					got, r.Verdict, r.Num, r.Den, r.Why, w.label, w.verdict, w.num, w.den, w.why)
			}
		}
	}
}

// TestComputeRatio: A/B is the numerator over the denominator, n counts
// the numerator's reps first, and the floor is the A/A pair's.
func TestComputeRatio(t *testing.T) {
	a := fixtureAnalysis(t)
	rows, err := Compute(a, parseAll(t, []string{"fast/flink on json", "crc=on/crc=off"}))
	if err != nil {
		t.Fatal(err)
	}
	r := rows[0]
	if math.Abs(r.Ratio.Ratio-4) > 1e-9 || !(r.Ratio.Lo > 3.5 && r.Ratio.Hi < 4.5) || r.Ratio.P >= Alpha {
		t.Errorf("fast/flink on json: ratio %v [%v, %v] p=%v, want 4 inside a tight interval, significant", r.Ratio.Ratio, r.Ratio.Lo, r.Ratio.Hi, r.Ratio.P)
	}
	if n := formatN(rows[1]); n != "n=2+5" {
		t.Errorf("crc=on/crc=off: %s, want the crc=on cell's 2 reps first", n)
	}
	if f := r.Floor; !f.Known() || f.Pairs != 1 || math.Abs(f.Detectable-0.0493) > 0.0005 || f.Biased {
		t.Errorf("floor %+v, want one unbiased A/A pair of about 4.9%%", f)
	}
}

// TestComputeErrors: a comparison the run cannot resolve is an error of
// one line; the other comparisons still get their rows.
func TestComputeErrors(t *testing.T) {
	a := fixtureAnalysis(t)
	rows, err := Compute(a, parseAll(t, []string{"fast/flnk", "fast/java on raw", "on/off", "fast/flink by format on json"}))
	if len(rows) != 1 || rows[0].Comparison.Text != "fast/java on raw" {
		t.Errorf("rows:\n%s\nwant fast/java on raw's only", dump(rows))
	}
	want := `headline "fast/flnk": "flnk" is no value of any axis of this run` + "\n" +
		`headline "on/off": "off" is a value of crc and ckpt in this run; write it key=value` + "\n" +
		`headline "fast/flink by format on json": by format: format is filtered (on) as well as split (by)`
	if err == nil || err.Error() != want {
		t.Errorf("error:\n%v\nwant:\n%s", err, want)
	}
}

func dump(rows []Row) string {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(joinParts(r.Label, " ") + " " + verdictText(r) + " " + r.Num + " / " + r.Den + "\n")
	}
	return b.String()
}

// TestComputeNearest: numerator cells without a partner, in a group with
// no pair, are a row each, each naming the denominator cell the run has.
func TestComputeNearest(t *testing.T) {
	const (
		f8  = "path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off"
		f16 = "path=fast/format=json/batch=16384/brokers=3/alloc=go/crc=off"
		c1  = "path=ceiling/format=json/batch=1024/brokers=3/alloc=go/crc=off"
	)
	var rows []results.Row
	for i := range 3 {
		for _, c := range []string{f8, f16, c1} {
			rows = append(rows, resultstest.OK(c, i, resultstest.Metric(results.UnitRecPerSec, 1e6+float64(i))))
		}
	}
	a, err := results.Analyze(rows, results.AnalysisOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Compute(a, parseAll(t, []string{"fast/ceiling"}))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"batch=8192 missing: no path=ceiling cell with batch=8192 but one with batch=1024 " + f8 + " / \n",
		"batch=16384 missing: no path=ceiling cell with batch=16384 but one with batch=1024 " + f16 + " / \n",
	}
	if d := dump(got); d != strings.Join(want, "") {
		t.Errorf("rows:\n%swant:\n%s", d, strings.Join(want, ""))
	}
}

package headline

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/cell"
)

func TestParse(t *testing.T) {
	bare := func(v string) cell.Part { return cell.Part{Value: v} }
	kv := func(k, v string) cell.Part { return cell.Part{Key: k, Value: v} }
	for _, tt := range []struct {
		in   string
		want Comparison
	}{
		{"fast/flink by format, cluster", Comparison{A: bare("fast"), B: bare("flink"), By: []string{"format", "cluster"}}},
		{"fast/java on raw", Comparison{A: bare("fast"), B: bare("java"), On: []cell.Part{bare("raw")}}},
		{"fast/decoder=none", Comparison{A: bare("fast"), B: kv("decoder", "none")}},
		{"mimalloc3/go", Comparison{A: bare("mimalloc3"), B: bare("go")}},
		{"crc=on/crc=off", Comparison{A: kv("crc", "on"), B: kv("crc", "off")}},
		{"ckpt=1s/ckpt=off", Comparison{A: kv("ckpt", "1s"), B: kv("ckpt", "off")}},
		{"fast/flink by format in peak-RSS-MB", Comparison{A: bare("fast"), B: bare("flink"), By: []string{"format"}, Unit: "peak-RSS-MB"}},
		// Clauses in any order; white space and commas as a person types them.
		{"  fast/flink  in ns/rec by format,cluster on kafka ,  batch=8192 ",
			Comparison{A: bare("fast"), B: bare("flink"), On: []cell.Part{bare("kafka"), kv("batch", "8192")}, By: []string{"format", "cluster"}, Unit: "ns/rec"}},
		{"path=fast/path=flink", Comparison{A: kv("path", "fast"), B: kv("path", "flink")}},
		// An upstream figure is kept apart from the text the tables print.
		{"fast/flink upstream 2.1-3.2× by format", Comparison{Text: "fast/flink by format", A: bare("fast"), B: bare("flink"), By: []string{"format"}, Upstream: "2.1-3.2×"}},
	} {
		got, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if tt.want.Text == "" {
			tt.want.Text = strings.Join(strings.Fields(tt.in), " ")
		}
		if tt.want.Unit == "" {
			tt.want.Unit = DefaultUnit
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q)\n got %+v\nwant %+v", tt.in, got, tt.want)
		}
	}
}

// TestParseErrors: each refusal is one line that quotes the headline and
// names what is wrong.
func TestParseErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", `headline "": empty; want A/B [on V, ...] [by AXIS, ...] [in UNIT]`},
		{"fast", `headline "fast": "fast" is not A/B`},
		{"fast/flink/java", `headline "fast/flink/java": "fast/flink/java" has more than one '/'; a headline compares one A with one B`},
		{"by format", `headline "by format": starts with "by"; want A/B first`},
		{"/flink", `headline "/flink": numerator is empty`},
		{"fast/", `headline "fast/": denominator is empty`},
		{"fast/fast", `headline "fast/fast": A and B are both fast`},
		{"path=flnk/path=fast", `headline "path=flnk/path=fast": numerator path=flnk: unknown path (want rowwise, shallow, fast, franz, java, java-perf, flink, flink-warm, ceiling)`},
		{"fast/decoder=", `headline "fast/decoder=": denominator "decoder=" is not key=value`},
		{"ckpt=1/ckpt=off", `headline "ckpt=1/ckpt=off": numerator ckpt=1 is not a positive duration`},
		{"aa=a/aa=b", `headline "aa=a/aa=b": numerator aa: A/A cells calibrate the noise floor; they are no point to compare`},
		{"fast/flink by formats", `headline "fast/flink by formats": by "formats": no such axis (want path, format, batch, brokers, alloc, crc, cluster, compression, size, keys, nulls, txn, case, decoder, mode, rate, linger, par, drain, partfetch, queuemin, fetchwait, rdkstats, wake, pause, discover, ckpt, commit, rescale, prof, fault)`},
		{"fast/flink by format cluster", `headline "fast/flink by format cluster": by "format cluster": separate items with commas`},
		{"fast/flink by format,", `headline "fast/flink by format,": by "format,": an empty item (a stray comma?)`},
		{"fast/flink by", `headline "fast/flink by": "by" names nothing`},
		{"fast/flink by format by cluster", `headline "fast/flink by format by cluster": "by" clause given twice`},
		{"fast/flink format", `headline "fast/flink format": "format" after A/B; want on, by, in or upstream`},
		{"fast/flink upstream 2x 3x", `headline "fast/flink": upstream "2x 3x": want one figure, e.g. upstream 2.1-3.2×`},
		{"fast/flink in rec/s MB/s", `headline "fast/flink in rec/s MB/s": in "rec/s MB/s": want one unit`},
		{"fast/decoder=none in pct-of-twin", `headline "fast/decoder=none in pct-of-twin": in pct-of-twin: a derived share is computed per table, not per repetition; compare rec/s instead (fast/decoder=none is pct-of-twin as a ratio)`},
		{"path=fast/path=flink by path", `headline "path=fast/path=flink by path": by path: path is the compared axis`},
		{"fast/decoder=none on decoder=lab", `headline "fast/decoder=none on decoder=lab": on decoder=lab: decoder is the compared axis`},
		{"fast/flink on format=json by format", `headline "fast/flink on format=json by format": by format: format is filtered (on) as well as split (by)`},
		{"fast/flink by format, format", `headline "fast/flink by format, format": by format: format is listed twice`},
		{"fast/flink on format=json, format=avro", `headline "fast/flink on format=json, format=avro": on format=avro: format is filtered twice`},
	} {
		_, err := Parse(tt.in)
		if err == nil {
			t.Errorf("Parse(%q) = nil error, want %s", tt.in, tt.want)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("Parse(%q)\n got %s\nwant %s", tt.in, err, tt.want)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q): error spans lines: %q", tt.in, err)
		}
	}
}

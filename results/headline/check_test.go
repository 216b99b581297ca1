package headline

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// specAxes is a spec's axes as the ladder would hand them to Check: every
// axis of the references spec, plus checkpoints off and every 1 s.
func specAxes() map[string][]string {
	return map[string][]string{
		"path":        {"shallow", "fast", "java", "flink", "ceiling"},
		"format":      {"raw", "json", "avro", "protobuf"},
		"batch":       {"8192"},
		"brokers":     {"3"},
		"alloc":       {"go", "mimalloc3"},
		"crc":         {"off", "on"},
		"cluster":     {"kafka", "embedded"},
		"compression": {"none"},
		"size":        {"100"},
		"keys":        {"off", "on"},
		"case":        {"none"},
		"decoder":     {"lab", "none"},
		"ckpt":        {"off", "1s"},
	}
}

func TestCheck(t *testing.T) {
	for _, h := range []string{
		"fast/flink by format, cluster",
		"fast/java on raw",
		"fast/decoder=none",
		"fast/none",                  // none: the swept decoder, not compression or case
		"fast/flink on none",         // the same, as a filter
		"fast/flink on embedded",     // a cluster the spec runs
		"fast/flink on wake=off",     // a part the map leaves out is off
		"fast/flink on size=100",     // a default the map holds
		"fast/flink on mode=bounded", // a default the map leaves out
		"mimalloc3/go",
		"crc=on/crc=off",
		"ckpt=1s/ckpt=off",
		"fast/flink by format in peak-RSS-MB",
	} {
		c, err := Parse(h)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(c, specAxes()); err != nil {
			t.Errorf("Check(%q): %v", h, err)
		}
	}
}

// TestCheckErrors: what the spec does not run is refused in one line that
// quotes the headline, as the spec loader prints it.
func TestCheckErrors(t *testing.T) {
	noDecoder := specAxes()
	noDecoder["decoder"] = []string{"lab"}
	for _, tt := range []struct {
		in   string
		axes map[string][]string
		want string
	}{
		{"fast/franz by format", nil, `headline "fast/franz by format": path=franz is not run by this spec`},
		{"fast/flnk", nil, `headline "fast/flnk": "flnk" is no value of any axis of this spec`},
		{"path=fast/path=rowwise", nil, `headline "path=fast/path=rowwise": path=rowwise is not run by this spec`},
		{"fast/flink on lz4", nil, `headline "fast/flink on lz4": on compression=lz4 is not run by this spec`},
		{"fast/flink on ckpt=2s", nil, `headline "fast/flink on ckpt=2s": on ckpt=2s is not run by this spec`},
		{"fast/flink on wake=20ms", nil, `headline "fast/flink on wake=20ms": on wake=20ms is not run by this spec`},
		{"fast/flink by wake", nil, `headline "fast/flink by wake": by wake: this spec has no wake axis`},
		{"on/off", nil, `headline "on/off": "on" is a value of crc and keys in this spec; write it key=value`},
		{"fast/none", noDecoder, `headline "fast/none": "none" is a value of compression and case in this spec; write it key=value`},
		{"fast/mimalloc2", nil, `headline "fast/mimalloc2": alloc=mimalloc2 is not run by this spec`},
		{"fast/path=fast", nil, `headline "fast/path=fast": A and B are both path=fast`},
		{"path=fast/flink on fast", nil, `headline "path=fast/flink on fast": on path=fast: path is the compared axis`},
		{"fast/none on lab", nil, `headline "fast/none on lab": on decoder=lab: decoder is the compared axis`},
		{"fast/flink on json by format", nil, `headline "fast/flink on json by format": by format: format is filtered (on) as well as split (by)`},
	} {
		c, err := Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		axes := tt.axes
		if axes == nil {
			axes = specAxes()
		}
		before := maps.Clone(axes)
		err = Check(c, axes)
		if err == nil {
			t.Errorf("Check(%q) = nil, want %s", tt.in, tt.want)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("Check(%q)\n got %s\nwant %s", tt.in, err, tt.want)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("Check(%q): error spans lines: %q", tt.in, err)
		}
		if !maps.EqualFunc(axes, before, func(a, b []string) bool { return strings.Join(a, ",") == strings.Join(b, ",") }) {
			t.Errorf("Check(%q) changed its axes map", tt.in)
		}
	}
}

// TestRunAxes: a run's axes as its cells write them, a part some cells
// leave out at its unset value, in the vocabulary's order; no aa.
func TestRunAxes(t *testing.T) {
	a := fixtureAnalysis(t)
	got := RunAxes(a.Sweep)
	want := map[string]string{
		"path":    "fast,java,flink,ceiling",
		"format":  "json,avro,protobuf,csv,raw",
		"batch":   "1024,8192",
		"brokers": "3",
		"alloc":   "go,mimalloc3",
		"crc":     "on,off",
		"decoder": "lab,none",
		"ckpt":    "1s,off",
	}
	if len(got) != len(want) {
		t.Errorf("RunAxes has keys %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	for k, w := range want {
		if g := strings.Join(got[k], ","); g != w {
			t.Errorf("RunAxes[%s] = %s, want %s", k, g, w)
		}
	}
	if _, ok := RunAxes(a.All)["aa"]; ok {
		t.Error("RunAxes of a run with A/A cells has an aa axis")
	}
}

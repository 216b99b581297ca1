package checkpointcost

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeCommitted writes a committed transaction file holding runs.
func writeCommitted(t *testing.T, output string, id int, runs ...run) {
	t.Helper()
	var b []byte
	for _, r := range runs {
		b = appendEncodedRun(b, r)
	}
	name := txnFile(output, committedDir, id)
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestVerifyHoles: offsets without a deliverable record (control records,
// aborted records) are neither lost nor part of the range's count, and a
// gap beside a hole is still lost.
func TestVerifyHoles(t *testing.T) {
	// partition 0 holds records at 0..9 and 11..19; offset 10 and 20 are
	// markers, 21..24 an aborted transaction, 25 its marker.
	holes := func(p int, lo, hi int64) int64 {
		var n int64
		for off := lo; off < hi; off++ {
			if off == 10 || off >= 20 {
				n++
			}
		}
		return n
	}
	start, stop := []int64{0}, []int64{26}
	for _, c := range []struct {
		name string
		runs []run
		want Verdict
	}{
		{"around the holes", []run{{0, 0, 10}, {0, 11, 9}}, Verdict{Records: 19, Files: 1}},
		{"a record beside a hole lost", []run{{0, 0, 10}, {0, 12, 8}}, Verdict{Records: 19, Lost: 1, Files: 1}},
	} {
		out := t.TempDir()
		writeCommitted(t, out, 1, c.runs...)
		got, err := Verify(out, start, stop, holes)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
	if v, _ := Verify(t.TempDir(), start, stop, nil); v.Lost != 26 {
		t.Errorf("without holes every offset counts: lost %d, want 26", v.Lost)
	}
}

func TestVerify(t *testing.T) {
	start, stop := []int64{0, 10}, []int64{100, 60}
	whole := []run{{0, 0, 40}, {1, 10, 50}, {0, 40, 60}}
	cases := []struct {
		name  string
		files [][]run
		want  Verdict
	}{
		{"exact", [][]run{whole}, Verdict{Records: 150, Files: 1}},
		{"exact across files", [][]run{whole[:1], whole[1:]}, Verdict{Records: 150, Files: 2}},
		{"injected duplicate", [][]run{whole, {{0, 39, 2}}}, Verdict{Records: 150, Dup: 2, Files: 2}},
		{"record three times", [][]run{whole, {{1, 20, 1}}, {{1, 20, 1}}}, Verdict{Records: 150, Dup: 2, Files: 3}},
		{"injected gap", [][]run{{{0, 0, 40}, {1, 10, 50}, {0, 45, 55}}}, Verdict{Records: 150, Lost: 5, Files: 1}},
		{"missing tail", [][]run{{{0, 0, 99}, {1, 10, 50}}}, Verdict{Records: 150, Lost: 1, Files: 1}},
		{"nothing committed", nil, Verdict{Records: 150, Lost: 150}},
		{"outside the range", [][]run{whole, {{1, 5, 6}, {1, 59, 3}, {7, 0, 4}}}, Verdict{Records: 150, Dup: 2, Extra: 5 + 2 + 4, Files: 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := t.TempDir()
			for i, f := range c.files {
				writeCommitted(t, out, i+1, f...)
			}
			got, err := Verify(out, start, stop, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
			if got.OK() != (c.want.Lost == 0 && c.want.Dup == 0 && c.want.Extra == 0) {
				t.Errorf("OK() = %v for %+v", got.OK(), got)
			}
		})
	}
}

func TestVerifyBadInput(t *testing.T) {
	out := t.TempDir()
	writeCommitted(t, out, 1, run{0, 0, 10})
	name := txnFile(out, committedDir, 1)
	data, _ := os.ReadFile(name)
	if err := os.WriteFile(name, data[:len(data)-3], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(out, []int64{0}, []int64{10}, nil); err == nil || !strings.Contains(err.Error(), "whole number") {
		t.Errorf("truncated file: err = %v", err)
	}
	if _, err := Verify(out, []int64{0}, []int64{10, 20}, nil); err == nil {
		t.Error("mismatched start/stop accepted")
	}
	if _, err := Verify(t.TempDir(), []int64{5}, []int64{4}, nil); err == nil {
		t.Error("stop before start accepted")
	}
}

func TestRuns(t *testing.T) {
	parts := []int32{0, 0, 0, 1, 1, 0, 0, 2}
	offs := []int64{5, 6, 7, 0, 1, 9, 10, 3}
	runs := appendRuns(nil, parts, offs)
	want := []run{{0, 5, 3}, {1, 0, 2}, {0, 9, 2}, {2, 3, 1}}
	if len(runs) != len(want) {
		t.Fatalf("runs = %v, want %v", runs, want)
	}
	var b []byte
	for i, r := range runs {
		if r != want[i] {
			t.Errorf("run %d = %v, want %v", i, r, want[i])
		}
		b = appendEncodedRun(b, r)
	}
	back, err := decodeRuns(b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range back {
		if back[i] != want[i] {
			t.Errorf("decoded run %d = %v, want %v", i, back[i], want[i])
		}
	}
	if _, err := decodeRuns(appendEncodedRun(nil, run{0, 1, 0})); err == nil {
		t.Error("empty run accepted")
	}
}

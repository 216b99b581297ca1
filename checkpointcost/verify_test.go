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
			got, err := Verify(out, start, stop)
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
	if _, err := Verify(out, []int64{0}, []int64{10}); err == nil || !strings.Contains(err.Error(), "whole number") {
		t.Errorf("truncated file: err = %v", err)
	}
	if _, err := Verify(out, []int64{0}, []int64{10, 20}); err == nil {
		t.Error("mismatched start/stop accepted")
	}
	if _, err := Verify(t.TempDir(), []int64{5}, []int64{4}); err == nil {
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

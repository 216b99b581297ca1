package results

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunPipeline walks the documented flow: child output -> Row ->
// journal -> run read back -> raw.txt and tables.
func TestRunPipeline(t *testing.T) {
	now := time.Date(2026, 12, 2, 10, 45, 0, 0, time.UTC)
	dir, err := NewRunDir(t.TempDir(), "lab", now)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteManifest(dir, Manifest{Host: HostFingerprint(), Start: now}); err != nil {
		t.Fatal(err)
	}
	j, err := OpenJournal(filepath.Join(dir, JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	for rep := 0; rep < 3; rep++ {
		for _, crc := range []string{"off", "on"} {
			out := strings.Replace(childOut, "crc=off", "crc="+crc, 1)
			b, err := ParseBench([]byte(out))
			if err != nil {
				t.Fatal(err)
			}
			if err := j.Append(Row{Cell: b.Name, Rep: rep, OK: true, Iters: b.Iters, Metrics: b.Metrics, Config: b.Config}); err != nil {
				t.Fatal(err)
			}
		}
	}
	j.Close()

	run, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Rows) != 6 || run.Dropped != 0 || !run.Manifest.Start.Equal(now) {
		t.Fatalf("run: %d rows, %d dropped, start %v", len(run.Rows), run.Dropped, run.Manifest.Start)
	}
	var raw bytes.Buffer
	if err := WriteRaw(&raw, run.Rows); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(raw.String(), "\nBenchmarkLadder/"); n != 6 {
		t.Errorf("raw.txt has %d result lines, want 6", n)
	}
	if err := WriteTables(dir, run.Rows); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, TablesDir, "rec-per-s-by-crc.txt")); err != nil {
		t.Error(err)
	}
	if _, err := ReadRun(t.TempDir()); err == nil {
		t.Error("ReadRun of an empty dir succeeded")
	}
}

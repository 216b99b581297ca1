package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestNewRunDir(t *testing.T) {
	root := filepath.Join(t.TempDir(), "runs")
	now := time.Date(2026, 12, 2, 11, 45, 0, 0, time.FixedZone("CET", 3600))
	dir, err := NewRunDir(root, "bench host/1", now)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, "20261202T104500Z-bench_host_1"); dir != want {
		t.Errorf("dir = %s, want %s", dir, want)
	}
	if fi, err := os.Stat(filepath.Join(dir, TablesDir)); err != nil || !fi.IsDir() {
		t.Errorf("tables dir missing: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".probe")); !os.IsNotExist(err) {
		t.Errorf("probe file left behind: %v", err)
	}
	// Same second, same host: a second run gets a suffix, not the same dir.
	dir2, err := NewRunDir(root, "bench host/1", now)
	if err != nil {
		t.Fatal(err)
	}
	if dir2 != dir+"-2" {
		t.Errorf("second dir = %s, want %s-2", dir2, dir)
	}
	dir3, err := NewRunDir(root, "", now)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(dir3, "-unknown") {
		t.Errorf("empty host: dir = %s, want ...-unknown", dir3)
	}
}

func TestNewRunDirUnwritable(t *testing.T) {
	// A root below a regular file cannot be created, even by root.
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(file, "runs")
	_, err := NewRunDir(root, "h", time.Now())
	if err == nil {
		t.Fatal("NewRunDir under a file succeeded")
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "run root "+root+" ") || strings.Contains(msg, "\n") {
		t.Errorf("error %q: want one line naming the root first", msg)
	}
	if _, err := NewRunDir("", "h", time.Now()); err == nil {
		t.Error("empty root accepted")
	}
}

package history

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/internal/golden"
)

func TestWriteRunsAndSeries(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, filepath.Join(t.TempDir(), "history.sqlite"))
	dir := t.TempDir()
	old := newFixture("20261201T000000Z-vm", 1e6)
	old.commit = "0123456789abcdef0123456789abcdef01234567"
	new := newFixture("20261202T000000Z-vm", 1.25e6)
	new.start, new.dirty = old.start.Add(24*time.Hour), true
	for _, f := range []fixture{new, old} {
		if _, err := s.Add(ctx, readRun(t, f.write(t, dir))); err != nil {
			t.Fatal(err)
		}
	}
	runs, err := s.Runs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteRuns(&b, runs); err != nil {
		t.Fatal(err)
	}
	series, err := s.Series(ctx, fastCell, "rec/s", runs[0].HostKey)
	if err != nil {
		t.Fatal(err)
	}
	b.WriteString("\n")
	if err := WriteSeries(&b, fastCell, "rec/s", series); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "history.txt", b.Bytes())
}

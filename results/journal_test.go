package results

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func sampleRow(cell string, rep int, ok bool) Row {
	start := time.Date(2026, 12, 2, 10, 45, 0, 0, time.UTC)
	r := Row{Cell: cell, Rep: rep, OK: ok, Iters: 1000, Start: start, End: start.Add(time.Second), Measured: 500 * time.Millisecond}
	if ok {
		r.Metrics = []Metric{{"rec/s", 1e6 + float64(rep)}, {"ns/rec", 1000}}
		r.Config = map[string]string{"goos": "linux"}
	} else {
		r.Reason, r.Signal, r.StderrTail = "timeout", "killed", "last words\nsecond line"
	}
	return r
}

func TestJournalRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), JournalFile)
	j, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []Row{sampleRow("a=1", 0, true), sampleRow("a=1", 1, false), sampleRow("a=2", 0, true)}
	for _, r := range want {
		if err := j.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if err := j.Append(want[0]); err == nil {
		t.Error("Append after Close succeeded")
	}
	got, dropped, err := ReadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	if dropped != 0 {
		t.Errorf("dropped = %d, want 0", dropped)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows differ:\n got %+v\nwant %+v", got, want)
	}
	data, _ := os.ReadFile(path)
	if n := strings.Count(string(data), "\n"); n != 3 {
		t.Errorf("journal has %d lines, want 3 (one per row)", n)
	}
}

func TestJournalTornLastLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), JournalFile)
	j, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if err := j.Append(sampleRow("a=1", i, true)); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	// A ladder killed mid-write leaves half a line.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"cell":"a=1","rep":2,"ok":tr`)
	f.Close()

	rows, dropped, err := ReadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || dropped != 1 {
		t.Fatalf("got %d rows, %d dropped; want 2 rows, 1 dropped", len(rows), dropped)
	}

	// Resuming cuts the torn line so the next row starts on a line of its own.
	j, err = OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	if j.Dropped() != 1 {
		t.Errorf("OpenJournal Dropped = %d, want 1", j.Dropped())
	}
	if err := j.Append(sampleRow("a=1", 2, true)); err != nil {
		t.Fatal(err)
	}
	j.Close()
	rows, dropped, err = ReadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || dropped != 0 || rows[2].Rep != 2 {
		t.Fatalf("after resume: %d rows, %d dropped, last rep %d; want 3, 0, 2", len(rows), dropped, rows[len(rows)-1].Rep)
	}
}

func TestJournalCorruptMiddle(t *testing.T) {
	path := filepath.Join(t.TempDir(), JournalFile)
	good := `{"cell":"a=1","rep":0,"ok":true,"iters":1,"start":"2026-12-02T10:45:00Z","end":"2026-12-02T10:45:01Z","measured_ns":1}`
	content := good + "\n" + "{not json\n" + good + "\n"
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := ReadJournal(path)
	if err == nil {
		t.Fatal("corrupt middle line accepted")
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "read journal "+path+":2: ") {
		t.Errorf("error %q does not start read journal %s:2", msg, path)
	}
	var fe *FileError
	if !errors.As(err, &fe) || fe.File != path || fe.Line != 2 || fe.Pos() != path+":2" || fe.Unwrap() == nil {
		t.Errorf("error %#v: want a *FileError at %s:2 with its cause", err, path)
	}
	if _, err := OpenJournal(path); err == nil {
		t.Error("OpenJournal appends to a corrupt journal")
	}
	if _, _, err := ReadJournal(filepath.Join(t.TempDir(), "missing.jsonl")); err == nil {
		t.Error("missing journal read without error")
	}
}

func TestJournalRejectsNonFinite(t *testing.T) {
	j, err := OpenJournal(filepath.Join(t.TempDir(), JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	r := sampleRow("a=1", 0, true)
	r.Metrics[0].Value = math.NaN()
	if err := j.Append(r); err == nil || !strings.Contains(err.Error(), "rec/s") {
		t.Errorf("NaN metric: err = %v, want an error naming rec/s", err)
	}
}

func TestFinished(t *testing.T) {
	rows := []Row{
		sampleRow("a=1", 0, true), sampleRow("a=1", 2, false), sampleRow("a=1", 0, true),
		sampleRow("a=2", 1, true),
	}
	fin := Finished(rows)
	for _, cr := range []CellRep{{"a=1", 0}, {"a=1", 2}, {"a=2", 1}} {
		if !fin[cr] {
			t.Errorf("Finished misses %v", cr)
		}
	}
	if fin[CellRep{"a=1", 1}] || len(fin) != 3 {
		t.Errorf("Finished = %v, want exactly 3 pairs", fin)
	}
}

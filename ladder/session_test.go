package ladder

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/internal/proctest"
	"github.com/fastpathlab/fplab/results"
)

const runnerSpec = `name: runner
path: [rowwise, shallow, fast, franz]
format: [json, raw]
batch: [8192]
brokers: [1]
alloc: [go, mimalloc2]
crc: [off]
records: 500
repetitions: 2
warmup: 1
timeout: 2s
seed: 3
calibrate: {path: fast, format: json, alloc: go}
exclude:
  - {format: raw, alloc: mimalloc2}
`

func mustSpec(t *testing.T, src string) *Spec {
	t.Helper()
	s, err := ParseSpec("runner.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func readJournal(t *testing.T, dir string) []results.Row {
	t.Helper()
	rows, dropped, err := results.ReadJournal(filepath.Join(dir, results.JournalFile))
	if err != nil || dropped != 0 {
		t.Fatalf("journal: %v (dropped %d)", err, dropped)
	}
	return rows
}

// wantKeys is every measured cell-repetition of spec s.
func wantKeys(t *testing.T, s *Spec) []string {
	sch, err := NewSchedule(s)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, r := range sch.Rounds {
		for _, e := range r {
			if !e.Warmup {
				keys = append(keys, e.Key())
			}
		}
	}
	slices.Sort(keys)
	return keys
}

func rowKeys(rows []results.Row) []string {
	var keys []string
	for _, r := range rows {
		keys = append(keys, rowKey(r.Cell, r.Rep))
	}
	slices.Sort(keys)
	return keys
}

// TestRunGoesOnPastFailures runs a ladder whose paths crash, fail an
// assertion, hang and succeed, and checks every row, the infrastructure
// calls, the outputs and the progress lines.
func TestRunGoesOnPastFailures(t *testing.T) {
	s := mustSpec(t, runnerSpec)
	infra := &fakeInfra{}
	var prog bytes.Buffer
	dir, err := Run(context.Background(), Options{
		Spec: s, BinDir: fakeBinDir(t, "go", "mimalloc2"), Root: t.TempDir(), Progress: &prog,
		Infra: infra, Grace: 200 * time.Millisecond,
		ChildEnv: fakeEnv("rowwise=crash,shallow=fail,franz/mimalloc2=hang"),
	})
	// The run goes on past every failure and then says it had some.
	if !errors.Is(err, ErrFailedCells) || !strings.HasPrefix(err.Error(), "14 of 28 cell-repetitions failed in "+dir) {
		t.Fatalf("run with failures: %v", err)
	}
	rows := readJournal(t, dir)
	if got, want := rowKeys(rows), wantKeys(t, s); !slices.Equal(got, want) {
		t.Fatalf("journal has\n%v\nwant (no warm-up rows, every measured rep once)\n%v", got, want)
	}
	for _, r := range rows {
		switch {
		case strings.HasPrefix(r.Cell, "path=rowwise/"):
			if r.OK || r.Signal != "SIGSEGV" || r.Reason != "crashed: killed by signal SIGSEGV" ||
				!strings.Contains(r.StderrTail, "fake: about to crash") {
				t.Errorf("crash row: %+v", r)
			}
			if n := len(strings.Split(r.StderrTail, "\n")); n != stderrLines {
				t.Errorf("stderr tail has %d lines, want %d", n, stderrLines)
			}
		case strings.HasPrefix(r.Cell, "path=shallow/"):
			want := "exit status 1: fplab rung: assertion failed: path fast fell back to per-record poll"
			if r.OK || r.Reason != want || r.Signal != "" || !strings.Contains(r.StderrTail, "fake rung log line 29") {
				t.Errorf("failed-assertion row: %+v", r)
			}
		case strings.HasPrefix(r.Cell, "path=franz/") && strings.Contains(r.Cell, "/alloc=mimalloc2/"):
			if r.OK || !strings.HasPrefix(r.Reason, "timeout: no result within 2s") || r.Signal != "SIGTERM" ||
				!strings.Contains(r.StderrTail, "fake: hanging") {
				t.Errorf("hang row: %+v", r)
			}
		default:
			if !r.OK || r.Iters != 500 || r.Measured != 25*time.Millisecond || r.Config["librdkafka"] != "2.11.1" ||
				r.Config["topic"] != "bid-"+strings.Split(r.Cell, "/")[1][len("format="):]+"-s3-n500" {
				t.Errorf("ok row: %+v", r)
			}
		}
	}
	// A/A pair rows exist for every rep.
	for rep := 0; rep < 2; rep++ {
		for _, tag := range []string{"aa=a", "aa=b"} {
			k := rowKey("path=fast/format=json/batch=8192/brokers=1/alloc=go/crc=off/"+tag, rep)
			if !slices.Contains(rowKeys(rows), k) {
				t.Errorf("missing A/A row %s", k)
			}
		}
	}
	if !slices.Equal(infra.started, []string{"embedded/brokers=1"}) || !slices.Equal(infra.stopped, infra.started) {
		t.Errorf("clusters started %v stopped %v", infra.started, infra.stopped)
	}
	slices.Sort(infra.loads)
	if want := []string{"embedded/brokers=1:bid-json-s3-n500", "embedded/brokers=1:bid-raw-s3-n500"}; !slices.Equal(infra.loads, want) {
		t.Errorf("loads %v, want one per format %v", infra.loads, want)
	}

	m, err := results.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.Librdkafka != "2.11.1" || m.AllocVersions["go"] != "fake-go" || m.AllocVersions["mimalloc2"] != "fake-mimalloc2" ||
		m.End.IsZero() || m.MeasuredFraction <= 0 || m.MeasuredFraction >= 1 || m.GitCommit == "" || m.Host.Cores == 0 {
		t.Errorf("manifest: %+v", m)
	}
	st, err := decodeStored(m.Spec)
	if err != nil || st.Spec.Seed != 3 || len(st.Cells) != 12 || st.Pinning.On {
		t.Errorf("stored spec %+v: %v", st, err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, results.RawFile))
	if err != nil {
		t.Fatal(err)
	}
	okRows := 0
	for _, r := range rows {
		if r.OK {
			okRows++
		}
	}
	if n := strings.Count(string(raw), "\nBenchmarkLadder/"); n != okRows {
		t.Errorf("raw.txt has %d results, journal %d OK rows:\n%s", n, okRows, raw)
	}

	if _, err := os.Stat(filepath.Join(dir, results.TablesDir, results.TableFileBase("rec/s", "path")+".txt")); err != nil {
		t.Errorf("tables: %v", err)
	}
	if !strings.Contains(prog.String(), "ladder: A/A noise floor on rec/s: b/a = 1.000") {
		t.Errorf("no noise floor note:\n%s", prog.String())
	}

	lines := strings.Split(strings.TrimSpace(prog.String()), "\n")
	total := (12 + 2) * 3
	var steps []string
	for _, l := range lines {
		if strings.HasPrefix(l, "cell ") {
			steps = append(steps, l)
		}
	}
	if len(steps) != total || !strings.HasPrefix(steps[total-1], fmt.Sprintf("cell %d/%d elapsed ", total, total)) ||
		!strings.Contains(prog.String(), " ETA ") || !strings.Contains(prog.String(), "(warm-up)") ||
		!strings.Contains(prog.String(), " 1234567 rec/s") || !strings.Contains(prog.String(), "FAILED crashed") {
		t.Errorf("progress:\n%s", prog.String())
	}
}

// TestTimeoutKillsProcessGroup checks that a child ignoring SIGTERM is
// SIGKILLed after the grace period together with its own child.
func TestTimeoutKillsProcessGroup(t *testing.T) {
	pids := filepath.Join(t.TempDir(), "pids")
	exe, _ := os.Executable()
	timeout := 500 * time.Millisecond
	res := runChild(context.Background(), childCmd{
		Bin: exe, Args: []string{"rung", "--path", "fast"}, Timeout: timeout, Grace: 200 * time.Millisecond,
		Env: fakeEnv("fast=stubborn", fakePidsEnv+"="+pids),
	})
	if !res.TimedOut || res.Signal != "SIGKILL" || !strings.Contains(res.StderrTail, "fake: ignoring SIGTERM") {
		t.Fatalf("result: %+v", res)
	}
	// Bound loosely: the kill must come from the timeout, not from the
	// child's hour-long sleep.
	if d := res.End.Sub(res.Start); d > time.Minute {
		t.Errorf("child ran %v", d)
	}
	data, err := os.ReadFile(pids)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Fields(string(data)) {
		pid, _ := strconv.Atoi(f)
		deadline := time.Now().Add(10 * time.Second)
		for proctest.Alive(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if proctest.Alive(pid) {
			t.Errorf("pid %d survived the timeout", pid)
		}
	}
	row := rowOf(Entry{Cell: cell.Cell{Path: "fast"}, Rep: 0}, timeout, res)
	if row.OK || row.Signal != "SIGKILL" || !strings.HasPrefix(row.Reason, "timeout: ") {
		t.Errorf("row %+v", row)
	}
}

func TestBadOutputIsFailedRow(t *testing.T) {
	exe, _ := os.Executable()
	res := runChild(context.Background(), childCmd{Bin: exe, Args: []string{"rung", "--path", "fast"}, Timeout: 30 * time.Second, Env: fakeEnv("fast=garbage")})
	row := rowOf(Entry{Cell: cell.Cell{Path: "fast"}}, time.Second, res)
	if row.OK || !strings.HasPrefix(row.Reason, "bad output: child output has no BenchmarkLadder result") {
		t.Errorf("row %+v", row)
	}
	res = runChild(context.Background(), childCmd{Bin: filepath.Join(t.TempDir(), "none"), Timeout: time.Second})
	row = rowOf(Entry{Cell: cell.Cell{Path: "fast"}}, time.Second, res)
	if row.OK || !strings.HasPrefix(row.Reason, "start: ") {
		t.Errorf("row %+v", row)
	}
}

func TestRuntimeSignalFromStderr(t *testing.T) {
	stderr := "fatal error: unexpected signal during runtime execution\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x0]\n\ngoroutine 1 [running]:\n"
	if got := runtimeSignal(stderr); got != "SIGSEGV" {
		t.Errorf("got %q", got)
	}
	row := rowOf(Entry{Cell: cell.Cell{Path: "fast"}}, time.Second, childResult{Exit: 2, Signal: "SIGSEGV", LastLine: "goroutine 1 [running]:"})
	if want := "exit status 2 (runtime crash on SIGSEGV): goroutine 1 [running]:"; row.Reason != want {
		t.Errorf("reason %q, want %q", row.Reason, want)
	}
}

// TestResumeFinishesKilledRun stops a run after k journaled rows (as if the
// ladder were killed) and checks that Resume completes it with no
// duplicated and no missing cell-repetition.
func TestResumeFinishesKilledRun(t *testing.T) {
	s := mustSpec(t, runnerSpec)
	bin := fakeBinDir(t, "go", "mimalloc2")
	root := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const k = 5
	n := 0
	infra := &fakeInfra{}
	dir, err := Run(ctx, Options{
		Spec: s, BinDir: bin, Root: root, Progress: &bytes.Buffer{}, Infra: infra,
		ChildEnv: fakeEnv(""),
		AfterRow: func(results.Row) {
			if n++; n == k {
				cancel()
			}
		},
	})
	if err == nil || !strings.Contains(err.Error(), "interrupted") || dir == "" {
		t.Fatalf("stopped run: dir %q err %v", dir, err)
	}
	if rows := readJournal(t, dir); len(rows) != k {
		t.Fatalf("%d rows after the stop, want %d", len(rows), k)
	}
	if len(infra.stopped) != len(infra.started) {
		t.Errorf("clusters not stopped on interrupt: started %v stopped %v", infra.started, infra.stopped)
	}
	var prog bytes.Buffer
	infra2 := &fakeInfra{}
	got, err := Resume(context.Background(), dir, Options{BinDir: bin, Progress: &prog, Infra: infra2, ChildEnv: fakeEnv("")})
	if err != nil || got != dir {
		t.Fatalf("resume: %q %v", got, err)
	}
	rows := readJournal(t, dir)
	if got, want := rowKeys(rows), wantKeys(t, s); !slices.Equal(got, want) {
		t.Fatalf("after resume journal has\n%v\nwant\n%v", got, want)
	}
	// Resume ran the warm-up round again plus exactly the missing reps.
	left := 14 + len(wantKeys(t, s)) - k
	if want := fmt.Sprintf("cell %d/%d ", left, left); !strings.Contains(prog.String(), want) {
		t.Errorf("progress lacks %q:\n%s", want, prog.String())
	}
	// A second Resume has nothing left and starts nothing.
	infra3 := &fakeInfra{}
	if _, err := Resume(context.Background(), dir, Options{BinDir: bin, Progress: &bytes.Buffer{}, Infra: infra3, ChildEnv: fakeEnv("")}); err != nil {
		t.Fatal(err)
	}
	if len(infra3.started) != 0 || len(readJournal(t, dir)) != len(rows) {
		t.Errorf("idle resume started %v", infra3.started)
	}
	m, _ := results.ReadManifest(dir)
	var st storedSpec
	if err := json.Unmarshal(m.Spec, &st); err != nil || st.Spec.Name != "runner" {
		t.Errorf("manifest spec after resume: %v %+v", err, st)
	}
}

func TestBadInputBeforeAnythingRuns(t *testing.T) {
	s := mustSpec(t, runnerSpec)
	root := t.TempDir()
	infra := &fakeInfra{}
	_, err := Run(context.Background(), Options{Spec: s, BinDir: fakeBinDir(t, "go"), Root: root, Infra: infra})
	if err == nil || !strings.Contains(err.Error(), `(run "make build-mimalloc2")`) || !strings.HasPrefix(err.Error(), "alloc mimalloc2: binary ") {
		t.Errorf("missing binary: %v", err)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 || len(infra.started) != 0 {
		t.Errorf("ran something: %v %v", ents, infra.started)
	}

	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	_, err = Run(context.Background(), Options{Spec: s, BinDir: fakeBinDir(t, "go", "mimalloc2"), Root: filepath.Join(file, "runs"), Infra: infra})
	if err == nil || !strings.Contains(err.Error(), "not writable") || strings.Contains(err.Error(), "\n") {
		t.Errorf("unwritable root: %v", err)
	}

	_, err = Run(context.Background(), Options{Spec: s, BinDir: fakeBinDir(t, "go", "mimalloc2"), Root: root, Infra: infra, CellCPUs: "1-0"})
	if err == nil || err.Error() != `bad CPU list "1-0" (want e.g. 0 or 1-3 or 0,2)` {
		t.Errorf("bad cpus: %v", err)
	}

	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte(strings.Replace(runnerSpec, "batch: [8192]", "batch: [abc]", 1)), 0o644)
	_, err = Run(context.Background(), Options{SpecPath: bad, Root: root, Infra: infra})
	if want := bad + `:4: batch: want a list of positive integers, got "abc"`; err == nil || err.Error() != want {
		t.Errorf("bad spec: %v", err)
	}
	if len(infra.started) != 0 {
		t.Errorf("started %v", infra.started)
	}
}

func TestInfraFailureStopsRun(t *testing.T) {
	s := mustSpec(t, strings.Replace(runnerSpec, "brokers: [1]", "brokers: [1, 3]", 1))
	infra := &fakeInfra{failOn: "embedded/brokers=3"}
	dir, err := Run(context.Background(), Options{Spec: s, BinDir: fakeBinDir(t, "go", "mimalloc2"), Root: t.TempDir(), Progress: &bytes.Buffer{}, Infra: infra, ChildEnv: fakeEnv("")})
	if err == nil || !strings.Contains(err.Error(), "fake failure") || dir == "" {
		t.Fatalf("err %v", err)
	}
	if !slices.Equal(infra.stopped, infra.started) {
		t.Errorf("started %v stopped %v", infra.started, infra.stopped)
	}
}

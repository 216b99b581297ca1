package ladder

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/results"
)

// smallSpec is 2 cells plus the A/A pair, 2 rounds, no warm-up: 8 child
// runs on one cluster shape.
const smallSpec = `name: small
path: [fast, rowwise]
format: [json]
batch: [8192]
brokers: [1]
alloc: [go]
crc: [off]
records: 500
repetitions: 2
timeout: 30s
seed: 3
`

// fakeLockEnv makes the test binary a process that locks the run directory
// it names, prints "locked" and holds the lock until stdin closes or it is
// killed.
const fakeLockEnv = "LADDER_FAKE_LOCK"

func init() {
	if dir := os.Getenv(fakeLockEnv); dir != "" {
		if _, err := lockRunDir(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		fmt.Println("locked")
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
		os.Exit(0)
	}
}

func allOK(t *testing.T, rows []results.Row) {
	t.Helper()
	for _, r := range rows {
		if !r.OK {
			t.Errorf("failed row %s#%d: %s", r.Cell, r.Rep, r.Reason)
		}
	}
}

func oneLineErr(t *testing.T, err error) {
	t.Helper()
	if err != nil && strings.Contains(err.Error(), "\n") {
		t.Errorf("error is not one line: %q", err)
	}
}

// TestFailedCellsFailTheRun: a run that ends with failed rows returns
// ErrFailedCells (the CLI exits 1) with its run directory complete, and a
// resume neither reruns the failed cells nor forgets them.
func TestFailedCellsFailTheRun(t *testing.T) {
	s := mustSpec(t, smallSpec)
	bin := fakeBinDir(t, "go")
	infra := &fakeInfra{}
	dir, err := Run(context.Background(), Options{Spec: s, BinDir: bin, Root: t.TempDir(), Progress: &bytes.Buffer{},
		Infra: infra, ChildEnv: fakeEnv("rowwise=fail")})
	var fe *FailedCellsError
	if !errors.As(err, &fe) || !errors.Is(err, ErrFailedCells) || errors.Is(err, ErrInfra) || dir == "" {
		t.Fatalf("run with failed cells: dir %q err %v", dir, err)
	}
	if fe.Failed != 2 || fe.Rows != 8 || fe.Dir != dir {
		t.Errorf("failed-cells error %+v, want 2 of 8 in %s", fe, dir)
	}
	if want := fmt.Sprintf("2 of 8 cell-repetitions failed in %s (reasons in journal.jsonl; --resume does not rerun them)", dir); err.Error() != want {
		t.Errorf("error\n got: %s\nwant: %s", err, want)
	}
	if infra.probes != 2 {
		t.Errorf("%d liveness probes, want one per failed cell (2)", infra.probes)
	}
	for _, f := range []string{results.RawFile, results.ManifestFile, results.TablesDir} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("run directory incomplete: %v", err)
		}
	}
	if m, err := results.ReadManifest(dir); err != nil || m.End.IsZero() {
		t.Errorf("manifest not finished: %v %+v", err, m)
	}
	rows := readJournal(t, dir)
	if got, want := rowKeys(rows), wantKeys(t, s); !slices.Equal(got, want) {
		t.Fatalf("journal %v, want %v", got, want)
	}

	infra2 := &fakeInfra{}
	_, err = Resume(context.Background(), dir, Options{BinDir: bin, Progress: &bytes.Buffer{}, Infra: infra2, ChildEnv: fakeEnv("")})
	if !errors.Is(err, ErrFailedCells) {
		t.Errorf("resume of a run with failed cells: %v", err)
	}
	if len(infra2.started) != 0 || len(readJournal(t, dir)) != len(rows) {
		t.Errorf("resume reran failed cells: started %v, %d rows", infra2.started, len(readJournal(t, dir)))
	}
}

// TestBrokerDeathStopsRun kills the fake cluster after n journaled rows:
// the next cell fails, the probe finds the broker dead, the run stops with
// ErrInfra naming it instead of failing every remaining cell, the failed
// cell is not journaled, and a resume on a healthy cluster completes the
// run with every cell OK.
func TestBrokerDeathStopsRun(t *testing.T) {
	s := mustSpec(t, smallSpec)
	bin := fakeBinDir(t, "go")
	const n = 3
	rows := 0
	infra := &fakeInfra{}
	var prog bytes.Buffer
	dir, err := Run(context.Background(), Options{Spec: s, BinDir: bin, Root: t.TempDir(), Progress: &prog, Infra: infra,
		ChildEnv: fakeEnv(""),
		AfterRow: func(results.Row) {
			if rows++; rows == n {
				infra.kill()
			}
		}})
	if !errors.Is(err, ErrInfra) || errors.Is(err, ErrFailedCells) || dir == "" ||
		!strings.HasPrefix(err.Error(), "infrastructure failure: cluster embedded/brokers=1: fake broker 127.0.0.1:1 is unreachable; stopped after 3 of 8 child runs: ") ||
		!strings.Contains(err.Error(), "is not journaled; resume with the run directory "+dir) {
		t.Fatalf("run on a dying broker: dir %q err %v", dir, err)
	}
	oneLineErr(t, err)
	got := readJournal(t, dir)
	if len(got) != n {
		t.Fatalf("%d journaled rows, want the %d before the death", len(got), n)
	}
	allOK(t, got)
	if !slices.Equal(infra.stopped, infra.started) {
		t.Errorf("started %v stopped %v", infra.started, infra.stopped)
	}
	if _, err := os.Stat(filepath.Join(dir, results.RawFile)); err != nil {
		t.Errorf("no raw.txt after the stop: %v", err)
	}

	infra2 := &fakeInfra{}
	if _, err := Resume(context.Background(), dir, Options{BinDir: bin, Progress: &bytes.Buffer{}, Infra: infra2, ChildEnv: fakeEnv("")}); err != nil {
		t.Fatalf("resume on a healthy cluster: %v", err)
	}
	after := readJournal(t, dir)
	if got, want := rowKeys(after), wantKeys(t, s); !slices.Equal(got, want) {
		t.Fatalf("after resume journal has\n%v\nwant\n%v", got, want)
	}
	allOK(t, after)
}

// TestDiskFullStopsRun: a child that fails with ENOSPC stops the run as an
// infrastructure failure; its cell is left for the resume.
func TestDiskFullStopsRun(t *testing.T) {
	s := mustSpec(t, smallSpec)
	bin := fakeBinDir(t, "go")
	dir, err := Run(context.Background(), Options{Spec: s, BinDir: bin, Root: t.TempDir(), Progress: &bytes.Buffer{},
		Infra: &fakeInfra{}, ChildEnv: fakeEnv("rowwise=enospc")})
	if !errors.Is(err, ErrInfra) || !strings.Contains(err.Error(), "infrastructure failure: disk full (no space left on device) under "+dir) {
		t.Fatalf("disk full: %v", err)
	}
	oneLineErr(t, err)
	rows := readJournal(t, dir)
	allOK(t, rows)
	for _, r := range rows {
		if strings.HasPrefix(r.Cell, "path=rowwise/") {
			t.Errorf("the cell that hit the full disk was journaled: %+v", r)
		}
	}
	if _, err := Resume(context.Background(), dir, Options{BinDir: bin, Progress: &bytes.Buffer{}, Infra: &fakeInfra{}, ChildEnv: fakeEnv("")}); err != nil {
		t.Fatal(err)
	}
	if got, want := rowKeys(readJournal(t, dir)), wantKeys(t, s); !slices.Equal(got, want) {
		t.Fatalf("after resume journal has %v, want %v", got, want)
	}
}

// TestLoadIsBounded: a corpus load that never returns is cut off by the
// load timeout (its ctx carries a deadline) and stops the run as an
// infrastructure failure; nothing is journaled.
func TestLoadIsBounded(t *testing.T) {
	s := mustSpec(t, smallSpec)
	infra := &fakeInfra{loading: make(chan context.Context, 1), release: make(chan struct{})}
	dir, err := Run(context.Background(), Options{Spec: s, BinDir: fakeBinDir(t, "go"), Root: t.TempDir(), Progress: &bytes.Buffer{},
		Infra: infra, ChildEnv: fakeEnv(""), LoadTimeout: 20 * time.Millisecond})
	lctx := <-infra.loading
	if _, ok := lctx.Deadline(); !ok {
		t.Errorf("Load got a ctx without a deadline")
	}
	if !errors.Is(err, ErrInfra) || !errors.Is(err, context.DeadlineExceeded) ||
		!strings.Contains(err.Error(), "load the json corpus on embedded/brokers=1: no corpus after 20ms (Options.LoadTimeout)") {
		t.Fatalf("hung load: %v", err)
	}
	oneLineErr(t, err)
	if _, serr := os.Stat(filepath.Join(dir, results.JournalFile)); serr == nil {
		if rows := readJournal(t, dir); len(rows) != 0 {
			t.Errorf("rows journaled: %v", rowKeys(rows))
		}
	}
	if !slices.Equal(infra.stopped, infra.started) {
		t.Errorf("started %v stopped %v", infra.started, infra.stopped)
	}
}

// TestLoadOnDeadBroker: a load that fails because the broker is down says
// so, and the ladder's own load path always passes a deadline.
func TestLoadOnDeadBroker(t *testing.T) {
	s := mustSpec(t, smallSpec)
	infra := &fakeInfra{dead: true}
	_, err := Run(context.Background(), Options{Spec: s, BinDir: fakeBinDir(t, "go"), Root: t.TempDir(), Progress: &bytes.Buffer{},
		Infra: infra, ChildEnv: fakeEnv("")})
	want := "infrastructure failure: cluster embedded/brokers=1: fake broker 127.0.0.1:1 is unreachable; the json corpus on embedded/brokers=1 could not be loaded (fake load: broker 127.0.0.1:1 is unreachable); resume with the run directory "
	if !errors.Is(err, ErrInfra) || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("load on a dead broker:\n got: %v\nwant: %s...", err, want)
	}
	if !slices.Equal(infra.loadDeadlines, []bool{true}) {
		t.Errorf("load deadlines %v", infra.loadDeadlines)
	}
}

// killedRun starts smallSpec and interrupts it after k journaled rows, as
// a killed ladder leaves a run directory.
func killedRun(t *testing.T, k int) (dir, bin string) {
	t.Helper()
	s := mustSpec(t, smallSpec)
	bin = fakeBinDir(t, "go")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	dir, err := Run(ctx, Options{Spec: s, BinDir: bin, Root: t.TempDir(), Progress: &bytes.Buffer{}, Infra: &fakeInfra{},
		ChildEnv: fakeEnv(""),
		AfterRow: func(results.Row) {
			if n++; n == k {
				cancel()
			}
		}})
	if err == nil || !strings.Contains(err.Error(), "interrupted") || dir == "" {
		t.Fatalf("stopped run: dir %q err %v", dir, err)
	}
	return dir, bin
}

func resumeOpts(bin string, infra Infra) Options {
	return Options{BinDir: bin, Progress: &bytes.Buffer{}, Infra: infra, ChildEnv: fakeEnv("")}
}

// TestResumeRefusedWhileLocked: a run directory held by another ladder is
// refused with one line naming it and the holder's pid; once released, the
// resume runs.
func TestResumeRefusedWhileLocked(t *testing.T) {
	dir, bin := killedRun(t, 2)
	l, err := lockRunDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	infra := &fakeInfra{}
	_, err = Resume(context.Background(), dir, resumeOpts(bin, infra))
	want := fmt.Sprintf("run directory in use: %s is held by another ladder (pid %d); wait for it or stop it", dir, os.Getpid())
	if !errors.Is(err, ErrLocked) || err.Error() != want {
		t.Fatalf("resume of a locked run:\n got: %v\nwant: %s", err, want)
	}
	if len(infra.started) != 0 || len(readJournal(t, dir)) != 2 {
		t.Errorf("refused resume ran something: %v", infra.started)
	}
	l.release()
	if _, err := Resume(context.Background(), dir, resumeOpts(bin, &fakeInfra{})); err != nil {
		t.Fatalf("resume after release: %v", err)
	}
	if got, want := rowKeys(readJournal(t, dir)), wantKeys(t, mustSpec(t, smallSpec)); !slices.Equal(got, want) {
		t.Errorf("journal %v, want %v", got, want)
	}
}

// TestConcurrentResumes: while one resume is running (held in its corpus
// load), a second is refused; the first then completes the run alone.
func TestConcurrentResumes(t *testing.T) {
	dir, bin := killedRun(t, 2)
	infra := &fakeInfra{loading: make(chan context.Context, 1), release: make(chan struct{})}
	first := make(chan error, 1)
	go func() {
		_, err := Resume(context.Background(), dir, resumeOpts(bin, infra))
		first <- err
	}()
	<-infra.loading // the first resume holds the lock and is setting up
	_, err := Resume(context.Background(), dir, resumeOpts(bin, &fakeInfra{}))
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), fmt.Sprintf("(pid %d)", os.Getpid())) {
		t.Errorf("second resume: %v", err)
	}
	close(infra.release)
	if err := <-first; err != nil {
		t.Fatalf("first resume: %v", err)
	}
	if got, want := rowKeys(readJournal(t, dir)), wantKeys(t, mustSpec(t, smallSpec)); !slices.Equal(got, want) {
		t.Errorf("journal %v, want %v", got, want)
	}
}

// TestStaleLockFileDoesNotBlock: a lock file left by a ladder that is gone
// (its pid no longer runs, so its flock went with it) does not block.
func TestStaleLockFileDoesNotBlock(t *testing.T) {
	dir, bin := killedRun(t, 2)
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(dir, LockFile)
	if err := os.WriteFile(lock, []byte(fmt.Sprintf("%d\n", gone.Process.Pid)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Resume(context.Background(), dir, resumeOpts(bin, &fakeInfra{})); err != nil {
		t.Fatalf("resume with a stale lock file: %v", err)
	}
	if data, err := os.ReadFile(lock); err != nil || len(data) != 0 {
		t.Errorf("lock file after the session: %q %v (want empty)", data, err)
	}
}

// TestCrashedOwnerDoesNotBlock: the lock of a ladder that is SIGKILLed
// disappears with its process.
func TestCrashedOwnerDoesNotBlock(t *testing.T) {
	dir, bin := killedRun(t, 2)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	owner := exec.Command(exe, "-test.run=^$")
	owner.Env = append(os.Environ(), fakeLockEnv+"="+dir)
	stdin, err := owner.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	out, err := owner.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := owner.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "locked\n" {
		t.Fatalf("owner: %q %v", line, err)
	}
	_, err = Resume(context.Background(), dir, resumeOpts(bin, &fakeInfra{}))
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("(pid %d)", owner.Process.Pid)) {
		t.Fatalf("resume while another process holds the run: %v", err)
	}
	if err := owner.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = owner.Wait()
	if _, err := Resume(context.Background(), dir, resumeOpts(bin, &fakeInfra{})); err != nil {
		t.Fatalf("resume after the owner died: %v", err)
	}
}

// TestRefusedSpecLeavesNothing: a spec over a limit, from a file or built
// in code, is refused before a directory is made or a cluster started.
func TestRefusedSpecLeavesNothing(t *testing.T) {
	root := t.TempDir()
	infra := &fakeInfra{}
	bad := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(bad, []byte(strings.Replace(smallSpec, "batch: [8192]", "batch: [1000000000]", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	dir, err := Run(context.Background(), Options{SpecPath: bad, BinDir: fakeBinDir(t, "go"), Root: root, Infra: infra})
	if want := bad + ":4: batch: 1000000000 is over the bound of 1048576 (every path refuses a larger batch, source/config.go)"; err == nil || err.Error() != want || dir != "" {
		t.Errorf("refused spec: dir %q err %v", dir, err)
	}
	s := mustSpec(t, smallSpec)
	s.Repetitions = 1_000_000_000
	dir, err = Run(context.Background(), Options{Spec: s, BinDir: fakeBinDir(t, "go"), Root: root, Infra: infra})
	if want := "spec small: repetitions: 1000000000 is out of 1..1000"; err == nil || err.Error() != want || dir != "" {
		t.Errorf("refused spec in code: dir %q err %v", dir, err)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 || len(infra.started) != 0 {
		t.Errorf("a refused spec left %v and started %v", ents, infra.started)
	}
}

// TestLimitsMatchDownstream pins the bounds of limits.go to the code that
// enforces them, where an exported API reaches it without starting
// anything. source's bounds are pinned by its own TestBoundsLadderMirrors,
// so this package's tests do not link librdkafka for them.
func TestLimitsMatchDownstream(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	// At the bounds the embedded cluster passes validation and stops at
	// the canceled ctx; one past, it refuses.
	if err := clusters.RunEmbedded(canceled, maxBrokers, maxPartitions, &out); err == nil || !strings.Contains(err.Error(), "not started") {
		t.Errorf("embedded cluster at brokers=%d partitions=%d: %v", maxBrokers, maxPartitions, err)
	}
	if err := clusters.RunEmbedded(canceled, maxBrokers+1, 1, &out); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("brokers must be 1..%d", maxBrokers)) {
		t.Errorf("embedded cluster at brokers=%d: %v", maxBrokers+1, err)
	}
	if err := clusters.RunEmbedded(canceled, 1, maxPartitions+1, &out); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("partitions must be 1..%d", maxPartitions)) {
		t.Errorf("embedded cluster at partitions=%d: %v", maxPartitions+1, err)
	}
}

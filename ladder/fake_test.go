package ladder

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/ladder/rungargs"
)

// The test binary doubles as the child: with fakeChildEnv set, TestMain runs
// fakeRung instead of the tests. Its behaviour is chosen per path value by
// fakeModesEnv ("rowwise=crash,franz/mimalloc2=hang": a path, or a path and
// an allocator); the default is ok.
const (
	fakeChildEnv = "LADDER_FAKE_CHILD"
	fakeModesEnv = "LADDER_FAKE_MODES"
	fakePidsEnv  = "LADDER_FAKE_PIDS" // file the stubborn child appends pids to
)

func TestMain(m *testing.M) {
	if os.Getenv(fakeChildEnv) == "1" {
		os.Exit(fakeRung(os.Args[1:]))
	}
	os.Exit(m.Run())
}

func fakeRung(args []string) int {
	if len(args) == 0 || args[0] != "rung" {
		fmt.Fprintln(os.Stderr, "fake: want rung")
		return 2
	}
	flags := map[string]string{}
	for i := 1; i+1 < len(args); i += 2 {
		flags[strings.TrimPrefix(args[i], "--")] = args[i+1]
	}
	// The name comes from the one decoder of a child's argv, as in `fplab rung`.
	rc, err := rungargs.Decode(args[1:], io.Discard)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	name := rc.Name()
	mode := "ok"
	for _, kv := range strings.Split(os.Getenv(fakeModesEnv), ",") {
		if k, v, ok := strings.Cut(kv, "="); ok && (k == flags["path"] || k == flags["path"]+"/"+flags["alloc"]) {
			mode = v
		}
	}
	for i := 0; i < 30; i++ {
		fmt.Fprintf(os.Stderr, "fake rung log line %d\n", i)
	}
	// A profiled child writes its profiles as it goes; one that fails
	// leaves them cut short.
	for _, f := range []string{flags["cpuprofile"], flags["memprofile"]} {
		if f != "" {
			if err := os.WriteFile(f, []byte("partial"), 0o644); err != nil {
				fmt.Fprintln(os.Stderr, "fake: write profile:", err)
				return 5
			}
		}
	}
	// The failures end as a real child's do: one line, written by
	// cmd/fplab's run() with its "fplab rung: " prefix.
	if flags["bootstrap"] == fakeDeadBootstrap {
		fmt.Fprintf(os.Stderr, "fplab rung: metadata from %s: dial tcp %s: connect: connection refused\n", fakeDeadBootstrap, fakeDeadBootstrap)
		return 1
	}
	switch mode {
	case "crash":
		fmt.Fprintln(os.Stderr, "fake: about to crash")
		// The Go runtime turns a SIGSEGV into exit status 2; a shell dies of it.
		err := syscall.Exec("/bin/sh", []string{"sh", "-c", "kill -SEGV $$"}, os.Environ())
		fmt.Fprintln(os.Stderr, "fake: exec sh:", err)
		return 3
	case "fail":
		fmt.Fprintln(os.Stderr, "fplab rung: assertion failed: path fast fell back to per-record poll")
		return 1
	case "enospc":
		fmt.Fprintln(os.Stderr, "fplab rung: write hashes: write /run/hashes/bid-json: no space left on device")
		return 1
	case "garbage":
		fmt.Println("no benchmark here")
		return 0
	case "hang":
		fmt.Fprintln(os.Stderr, "fake: hanging")
		time.Sleep(time.Hour)
		return 0
	case "stubborn":
		signal.Ignore(syscall.SIGTERM)
		gc := exec.Command("sleep", "3600")
		if err := gc.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "fake: start grandchild:", err)
			return 4
		}
		if f, err := os.OpenFile(os.Getenv(fakePidsEnv), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644); err == nil {
			fmt.Fprintf(f, "%d\n%d\n", os.Getpid(), gc.Process.Pid)
			f.Close()
		}
		fmt.Fprintln(os.Stderr, "fake: ignoring SIGTERM")
		time.Sleep(time.Hour)
		return 0
	}
	cpus := "unknown"
	if data, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(l, "Cpus_allowed_list:"); ok {
				cpus = strings.TrimSpace(v)
			}
		}
	}
	fmt.Printf("goos: linux\nlibrdkafka: 2.11.1\nalloc-version: fake-%s\ncpus: %s\ntopic: %s\n", flags["alloc"], cpus, flags["topic"])
	if v := flags["checkpoint-interval"]; v != "" {
		fmt.Printf("checkpoint-interval: %s\n", v)
	}
	fmt.Printf("BenchmarkLadder/%s %s 1234567 rec/s 118.5 MB/s 25 window-ms\n", name, flags["records"])
	return 0
}

// fakeDeadBootstrap is the bootstrap a dead fake cluster hands out; a fake
// child given it fails, as a real one fails to reach a dead broker.
const fakeDeadBootstrap = "127.0.0.1:0"

// fakeInfra records what the ladder asks of the clusters.
type fakeInfra struct {
	mu      sync.Mutex
	started []string
	loads   []string
	stopped []string
	probes  int
	props   []map[string]string // the cluster props of every Start
	failOn  string              // shape whose Start fails
	dead    bool                // every cluster is down (kill sets it)

	// loading, when set, receives the ctx of every Load; the Load then
	// waits for release (or the ctx's end) before it returns.
	loading chan context.Context
	release chan struct{}
	// loadDeadline records whether every Load had a deadline.
	loadDeadlines []bool
}

// kill makes every cluster of f dead: Alive fails, Bootstrap hands out an
// address children cannot reach.
func (f *fakeInfra) kill() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.dead = true
}

func (f *fakeInfra) Start(_ context.Context, c ClusterSpec) (Cluster, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if c.Shape.String() == f.failOn {
		return nil, fmt.Errorf("start broker %s: fake failure", c.Shape)
	}
	f.started = append(f.started, c.Shape.String())
	f.props = append(f.props, c.Props)
	return &fakeCluster{f: f, shape: c.Shape}, nil
}

type fakeCluster struct {
	f     *fakeInfra
	shape Shape
}

func (c *fakeCluster) Bootstrap() []string {
	c.f.mu.Lock()
	defer c.f.mu.Unlock()
	if c.f.dead {
		return []string{fakeDeadBootstrap}
	}
	return []string{"127.0.0.1:1"}
}

func (c *fakeCluster) Alive(ctx context.Context) error {
	c.f.mu.Lock()
	defer c.f.mu.Unlock()
	c.f.probes++
	if _, ok := ctx.Deadline(); !ok {
		return fmt.Errorf("fake probe without a deadline")
	}
	if c.f.dead {
		return fmt.Errorf("cluster %s: fake broker 127.0.0.1:1 is unreachable", c.shape)
	}
	return nil
}

func (c *fakeCluster) Load(ctx context.Context, cs CorpusSpec) (string, error) {
	if c.f.loading != nil {
		c.f.loading <- ctx
		select {
		case <-c.f.release:
		case <-ctx.Done():
			return "", fmt.Errorf("fake load: %w", ctx.Err())
		}
	}
	c.f.mu.Lock()
	defer c.f.mu.Unlock()
	_, hasDeadline := ctx.Deadline()
	c.f.loadDeadlines = append(c.f.loadDeadlines, hasDeadline)
	if c.f.dead {
		return "", fmt.Errorf("fake load: broker 127.0.0.1:1 is unreachable")
	}
	topic := corpusTopic(fmt.Sprintf("%s-%s-s%d-n%d", cs.Schema, cs.Format, cs.Seed, cs.Records), cs.Topic)
	c.f.loads = append(c.f.loads, c.shape.String()+":"+topic)
	return topic, nil
}

func (c *fakeCluster) Stop() error {
	c.f.mu.Lock()
	defer c.f.mu.Unlock()
	c.f.stopped = append(c.f.stopped, c.shape.String())
	return nil
}

// fakeBinDir makes a directory whose fplab* binaries are the test binary.
func fakeBinDir(t *testing.T, allocs ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, a := range allocs {
		if err := os.Symlink(exe, filepath.Join(dir, binaryName(a))); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// fakeEnv is the environment of fake children.
func fakeEnv(modes string, extra ...string) []string {
	return append(append(os.Environ(), fakeChildEnv+"=1", fakeModesEnv+"="+modes), extra...)
}

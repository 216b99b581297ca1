package ladder

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/fastpathlab/fplab/results"
)

// Options configures Run and Resume. The zero value is usable for Resume;
// Run needs SpecPath or Spec.
type Options struct {
	// SpecPath is the spec file Run loads (ignored when Spec is set).
	SpecPath string
	// Spec is an already loaded spec.
	Spec *Spec
	// BinDir holds the child binaries fplab, fplab-mimalloc2 and
	// fplab-mimalloc3; default: the directory of os.Executable().
	BinDir string
	// Root is where run directories are created; default results/runs.
	Root string
	// Progress receives the progress lines; default os.Stderr.
	Progress io.Writer
	// Infra starts brokers and loads corpora; default a KafkaInfra.
	Infra Infra
	// BrokerCPUs and CellCPUs pin the broker processes and the measured
	// children to CPU lists ("0", "1-3"); empty: no pinning.
	BrokerCPUs string
	CellCPUs   string
	// Profile makes every measured cell write a CPU and an allocs profile
	// to <run>/profiles (ProfilePaths names them). Profiling costs
	// throughput: measure it (docs/methodology.md) before comparing a
	// profiled run with an unprofiled one.
	Profile bool
	// Secrets are the secret cluster props handed again to Resume: the run
	// directory keeps none (docs/exit-codes.md). Run refuses them: a new
	// run takes its secrets from its spec's cluster_props.
	Secrets map[string]string
	// Grace is the SIGTERM -> SIGKILL delay for a child past its timeout;
	// 0: 2s. Every duration here is refused when negative or over a day.
	Grace time.Duration
	// LoadTimeout bounds the loading of one corpus, so a broker that dies
	// mid-load stops the run instead of hanging it; default
	// defaultLoadTimeout(spec.Timeout).
	LoadTimeout time.Duration
	// ProbeTimeout bounds the liveness check of a cluster after a failed
	// cell (Cluster.Alive); default 15s.
	ProbeTimeout time.Duration
	// AfterRow, when set, is called after every journaled row (tests use it
	// to stop a run part-way).
	AfterRow func(results.Row)
	// ChildEnv, when set, is the environment of every child (default: the
	// ladder's own).
	ChildEnv []string

	// memTotal and freeDisk stand in for the host's memory and the free
	// space under Root in tests (0: MemTotal of /proc/meminfo, statfs);
	// freeDisk < 0 skips the disk check (a resume: checked at the start).
	memTotal, freeDisk int64
}

// withDefaults checks o against its bounds and fills in every default,
// once, at the entry of Run and Resume (spec is the spec being run: the
// load timeout's default derives from its per-child timeout). Each error
// names the field and its bound; nothing is silently replaced.
func (o Options) withDefaults(spec *Spec) (Options, error) {
	for _, d := range []struct {
		name string
		v    *time.Duration
		def  time.Duration
	}{
		{"Grace", &o.Grace, defaultGrace},
		{"LoadTimeout", &o.LoadTimeout, defaultLoadTimeout(spec.Timeout)},
		{"ProbeTimeout", &o.ProbeTimeout, defaultProbeTimeout},
	} {
		switch {
		case *d.v < 0 || *d.v > maxOptionTimeout:
			//lint:ignore ST1005 the message starts with the field's Go name, Options.X
			return o, fmt.Errorf("Options.%s is %v, want 0 (default %v) to %v", d.name, *d.v, d.def, maxOptionTimeout)
		case *d.v == 0:
			*d.v = d.def
		}
	}
	for _, c := range []struct{ name, list string }{{"--broker-cpus", o.BrokerCPUs}, {"--cell-cpus", o.CellCPUs}} {
		if c.list == "" {
			continue
		}
		allowed, err := allowedCPUs()
		if err != nil {
			return o, err
		}
		if err := cpusWithin(c.name, c.list, allowed); err != nil {
			return o, err
		}
	}
	if o.Progress == nil {
		o.Progress = os.Stderr
	}
	if o.Root == "" {
		o.Root = results.DefaultRoot
	}
	if o.BinDir == "" {
		exe, err := os.Executable()
		if err != nil {
			return o, fmt.Errorf("binary directory: %w", err)
		}
		o.BinDir = filepath.Dir(exe)
	}
	return o, nil
}

// maxOptionTimeout bounds every duration option: a day is past any cell,
// load or probe the lab runs, so a larger value is a unit mistake.
const maxOptionTimeout = 24 * time.Hour

// defaultLoadTimeout is ten times the spec's per-child timeout, and at
// least two minutes. A load produces the records one cell consumes, so ten
// times what a cell is allowed is ample for a slow producer: the bound is
// there for a dead broker, which otherwise hangs the load in retries.
func defaultLoadTimeout(cell time.Duration) time.Duration {
	return max(10*cell, 2*time.Minute)
}

// defaultProbeTimeout bounds a liveness probe: a live broker on the same
// host answers a metadata request in milliseconds, a dead one refuses the
// connection at once; the bound is for a hung one.
const defaultProbeTimeout = 15 * time.Second

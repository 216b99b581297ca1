package ladder

import (
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
	// Infra starts brokers and loads corpora; default NewKafkaInfra.
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
	// Grace is the SIGTERM -> SIGKILL delay for a child past its timeout;
	// default 2s.
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
}

func (o Options) progressWriter() io.Writer {
	if o.Progress != nil {
		return o.Progress
	}
	return os.Stderr
}

func (o Options) root() string {
	if o.Root != "" {
		return o.Root
	}
	return results.DefaultRoot
}

func (o Options) binDir() (string, error) {
	if o.BinDir != "" {
		return o.BinDir, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	return filepath.Dir(exe), nil
}

// defaultLoadTimeout is ten times the spec's per-child timeout, and at
// least two minutes. A load produces the records one cell consumes, so ten
// times what a cell is allowed is ample for a slow producer: the bound is
// there for a dead broker, which otherwise hangs the load in retries.
func defaultLoadTimeout(cell time.Duration) time.Duration {
	return max(10*cell, 2*time.Minute)
}

func (o Options) loadTimeout(cell time.Duration) time.Duration {
	if o.LoadTimeout > 0 {
		return o.LoadTimeout
	}
	return defaultLoadTimeout(cell)
}

func (o Options) probeTimeout() time.Duration {
	if o.ProbeTimeout > 0 {
		return o.ProbeTimeout
	}
	return defaultProbeTimeout
}

// defaultProbeTimeout bounds a liveness probe: a live broker on the same
// host answers a metadata request in milliseconds, a dead one refuses the
// connection at once; the bound is for a hung one.
const defaultProbeTimeout = 15 * time.Second

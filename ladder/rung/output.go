package rung

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/fastpathlab/fplab/alloc"
	"github.com/fastpathlab/fplab/internal/oneline"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
)

// Build describes the binary a rung runs in; cmd/fplab fills it.
type Build struct {
	Commit string
	Dirty  bool
}

// buildFlags returns the flags the binary was built with, as recorded by
// the Go toolchain.
func buildFlags() (flags string, race, noopt bool) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown", false, false
	}
	var parts []string
	for _, s := range bi.Settings {
		switch s.Key {
		case "-race":
			race = s.Value == "true"
		case "-gcflags":
			for _, f := range strings.Fields(s.Value) {
				if _, after, ok := strings.Cut(f, "="); ok {
					f = after
				}
				if f == "-N" || f == "-l" {
					noopt = true
				}
			}
		}
		if strings.HasPrefix(s.Key, "-") || s.Key == "CGO_ENABLED" || s.Key == "GOAMD64" || s.Key == "GOARM64" {
			parts = append(parts, s.Key+"="+s.Value)
		}
	}
	return strings.Join(parts, " "), race, noopt
}

// check refuses to measure anything but an optimised build.
func (b Build) check() error {
	_, race, noopt := buildFlags()
	if race {
		return fmt.Errorf("binary built with -race; only optimised builds are measured")
	}
	if noopt {
		return fmt.Errorf("binary built with -N or -l; only optimised builds are measured")
	}
	return nil
}

// WriteResult prints a cell's result in Go benchmark format: its
// file-config lines (the binary, the client, the cluster; extra ones, as
// key and value, last) and its one result line, named by the cell
// (cell.Cell.Name) with iters iterations and the figures in their order.
// A Runner calls it last, once every check of the cell has passed.
func WriteResult(w io.Writer, c *rungargs.Cell, b Build, client string, iters int64, figs []results.Metric, extra ...[2]string) error {
	flags, _, _ := buildFlags()
	commit := b.Commit
	if commit == "" {
		commit = "unknown"
	}
	if b.Dirty {
		commit += "-dirty"
	}
	cfg := [][2]string{
		{"goos", runtime.GOOS},
		{"goarch", runtime.GOARCH},
		{"cpu", cpuModel()},
		{"go", runtime.Version()},
		{"client", client},
		{"alloc-version", alloc.Version()},
		{"commit", commit},
		{"build-flags", flags},
		{"cluster", c.Cluster},
		{"schema", c.Schema},
		{"partitions", fmt.Sprint(c.Partitions)},
		// The cores this cell could use (its CPU affinity) and the Go
		// runtime's share of them: beside a Flink cell's parallelism, how
		// many cores each side of a reference comparison had.
		{"cpus", fmt.Sprint(runtime.NumCPU())},
		{"gomaxprocs", fmt.Sprint(runtime.GOMAXPROCS(0))},
	}
	cfg = append(cfg, extra...)
	var sb strings.Builder
	for _, kv := range cfg {
		fmt.Fprintf(&sb, "%s: %s\n", kv[0], configValue(kv[1]))
	}
	fmt.Fprintf(&sb, "BenchmarkLadder/%s %d", c.Name(), iters)
	for _, m := range figs {
		fmt.Fprintf(&sb, " %.6g %s", m.Value, m.Unit)
	}
	sb.WriteString("\n")
	_, err := io.WriteString(w, sb.String())
	return err
}

// configValue is a file-config value on one line, "unknown" when empty.
func configValue(s string) string {
	if s = oneline.Of(s); s == "" {
		return "unknown"
	}
	return s
}

package rung

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/workloads"
)

// Cell is one point of the ladder's matrix plus what the child needs to
// reach its corpus.
type Cell struct {
	Path    source.Path
	Format  workloads.Format
	Batch   int
	Brokers int
	Alloc   string
	CRC     bool
	// Cluster is embedded, kafka or external; it is reported, not acted on.
	Cluster    string
	Bootstrap  []string
	Props      map[string]string
	Topic      string
	Partitions int
	Records    int
	Seed       uint64
	Schema     string
	// Tags are extra key=value name parts, e.g. aa=a for the A/A pair.
	Tags []string
	// Timeout bounds the whole cell.
	Timeout time.Duration
	// HashCache is a directory where the corpus's expected row hashes are
	// cached between cells ("" = compute them in every cell).
	HashCache string

	// CkptInterval turns checkpointing on (0: off); Failures is how many
	// reader processes to kill. CkptDir holds the checkpoint store and the
	// sink's output ("": a temporary directory removed afterwards).
	CkptInterval time.Duration
	Failures     int
	// KillSeed picks where the readers are killed (0: the corpus seed);
	// the ladder derives it per cell and repetition, so kills land at
	// different positions in every cell-repetition.
	KillSeed uint64
	CkptDir  string
	// FaultSocket, when set, is the fault server (clusters/kafka) the cell
	// asks to kill a broker at its first batch and restart it at half the
	// corpus.
	FaultSocket string
	// Role is "" for the cell itself, or "reader" for a checkpointing
	// reader process the cell's supervisor started.
	Role string
}

// Args renders the cell as `fplab rung` flags, the one encoding the ladder
// and a checkpointing supervisor use to start a cell's processes. Secret
// props (clusters.IsSecretKey) are not among them: a child started with
// these flags must inherit SecretFiles.
func (c *Cell) Args() []string {
	crc := "off"
	if c.CRC {
		crc = "on"
	}
	a := []string{
		"--path", string(c.Path), "--format", string(c.Format),
		"--batch", fmt.Sprint(c.Batch), "--brokers", fmt.Sprint(c.Brokers),
		"--alloc", c.Alloc, "--crc", crc, "--cluster", c.Cluster,
		"--bootstrap", strings.Join(c.Bootstrap, ","), "--topic", c.Topic,
		"--partitions", fmt.Sprint(c.Partitions), "--records", fmt.Sprint(c.Records),
		"--seed", fmt.Sprint(c.Seed), "--schema", c.Schema, "--timeout", c.Timeout.String(),
	}
	public, secrets := clusters.SplitSecrets(c.Props)
	for _, k := range sortedKeys(public) {
		a = append(a, "--cluster-prop", k+"="+public[k])
	}
	if len(secrets) > 0 {
		// The values travel on a pipe: see SecretFiles.
		a = append(a, "--secrets-fd", fmt.Sprint(SecretsFD))
	}
	for _, t := range c.Tags {
		a = append(a, "--tag", t)
	}
	if c.HashCache != "" {
		a = append(a, "--hash-cache", c.HashCache)
	}
	if c.CkptInterval > 0 {
		a = append(a, "--checkpoint-interval", c.CkptInterval.String())
	}
	if c.Failures > 0 {
		a = append(a, "--failures", fmt.Sprint(c.Failures))
	}
	if c.KillSeed != 0 {
		a = append(a, "--kill-seed", fmt.Sprint(c.KillSeed))
	}
	if c.CkptDir != "" {
		a = append(a, "--ckpt-dir", c.CkptDir)
	}
	if c.Role != "" {
		a = append(a, "--role", c.Role)
	}
	if c.FaultSocket != "" {
		a = append(a, "--fault-socket", c.FaultSocket)
	}
	return a
}

// Name is the sub-benchmark name, key=value parts in a fixed order so
// benchproc can project any of them.
func (c *Cell) Name() string {
	crc := "off"
	if c.CRC {
		crc = "on"
	}
	parts := []string{
		"path=" + string(c.Path),
		"format=" + string(c.Format),
		fmt.Sprintf("batch=%d", c.Batch),
		fmt.Sprintf("brokers=%d", c.Brokers),
		"alloc=" + c.Alloc,
		"crc=" + crc,
	}
	if c.CkptInterval > 0 {
		parts = append(parts, "ckpt="+c.CkptInterval.String())
	}
	return strings.Join(append(parts, c.Tags...), "/")
}

func (c *Cell) validate() error {
	switch {
	case c.Batch <= 0:
		return fmt.Errorf("rung: batch must be > 0, got %d", c.Batch)
	case c.Brokers <= 0:
		return fmt.Errorf("rung: brokers must be > 0, got %d", c.Brokers)
	case c.Records <= 0:
		return fmt.Errorf("rung: records must be > 0, got %d", c.Records)
	case c.Partitions <= 0:
		return fmt.Errorf("rung: partitions must be > 0, got %d", c.Partitions)
	case len(c.Bootstrap) == 0:
		return fmt.Errorf("rung: no bootstrap servers")
	case c.Topic == "":
		return fmt.Errorf("rung: no topic")
	case c.Timeout <= 0:
		return fmt.Errorf("rung: timeout must be > 0")
	case c.Failures < 0:
		return fmt.Errorf("rung: failures must be >= 0, got %d", c.Failures)
	case c.Failures > 0 && c.CkptInterval <= 0:
		return fmt.Errorf("rung: failures need checkpoints (a checkpoint interval > 0)")
	case c.Role != "" && c.Role != "reader":
		return fmt.Errorf("rung: unknown role %q", c.Role)
	case c.Role == "reader" && c.CkptDir == "":
		return fmt.Errorf("rung: a reader needs --ckpt-dir")
	}
	if err := checkNotRedacted(c.Props); err != nil {
		return err
	}
	if err := c.validateKafka(); err != nil {
		return err
	}
	for _, t := range c.Tags {
		k, v, ok := strings.Cut(t, "=")
		if !ok || k == "" || v == "" || strings.ContainsAny(t, "/ \t") {
			return fmt.Errorf("rung: tag %q is not key=value", t)
		}
	}
	return nil
}

// sortedKeys orders a map's keys, so rendered flags are deterministic.
func sortedKeys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

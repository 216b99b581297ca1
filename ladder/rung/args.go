package rung

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/workloads"
)

// Profiles are the profile files a rung writes when asked.
type Profiles struct {
	CPU, Mem string
}

// ParseArgs decodes `fplab rung` flags, the inverse of Cell.Args. It uses
// its own flag set (no globals). A bad flag is only returned, for the
// caller to print once; -h writes the flags to usage and returns
// flag.ErrHelp.
func ParseArgs(args []string, usage io.Writer) (Cell, Profiles, error) {
	fs := flag.NewFlagSet("fplab rung", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	var (
		path      = fs.String("path", "fast", "consume path: rowwise, shallow, fast, franz or java")
		format    = fs.String("format", "json", "message format: json, avro, protobuf, csv or raw")
		batch     = fs.Int("batch", 8192, "rows per Arrow batch")
		brokers   = fs.Int("brokers", 1, "broker count the cluster must have (read back from metadata)")
		allocName = fs.String("alloc", "go", "allocator the binary must be built for: go, mimalloc2 or mimalloc3")
		crc       = fs.String("crc", "off", "check.crcs: on or off")
		cluster   = fs.String("cluster", "embedded", "cluster kind, reported in the result: embedded, kafka or external")
		bootstrap = fs.String("bootstrap", "", "bootstrap servers, host:port[,host:port...]")
		topic     = fs.String("topic", "", "topic holding the corpus")
		parts     = fs.Int("partitions", 6, "partition count of the topic")
		records   = fs.Int("records", 0, "corpus record count")
		seed      = fs.Uint64("seed", 1, "corpus seed")
		schema    = fs.String("schema", "bid", "corpus schema: bid or bid-wide")
		timeout   = fs.Duration("timeout", 2*time.Minute, "hard limit for the whole cell")
		hashCache = fs.String("hash-cache", "", "directory caching the corpus's expected row hashes")
		ckptIv    = fs.Duration("checkpoint-interval", 0, "checkpoint barrier interval (0: checkpointing off)")
		failures  = fs.Int("failures", 0, "reader processes to kill with SIGKILL at seeded moments (needs checkpoints)")
		killSeed  = fs.Uint64("kill-seed", 0, "seed of the reader kill positions (0: the corpus seed)")
		ckptDir   = fs.String("ckpt-dir", "", "directory for the checkpoint store and the sink's output (default: a temporary one)")
		faultSock = fs.String("fault-socket", "", "internal: fault server socket of a broker_kill cell (cluster=kafka)")
		role      = fs.String("role", "", "internal: \"reader\" for a checkpointing reader process")
		cpuProf   = fs.String("cpuprofile", "", "write a CPU profile of the cell to this file")
		memProf   = fs.String("memprofile", "", "write a heap profile at the end of the cell to this file")
		secretsFD = fs.Int("secrets-fd", 0, "internal: read secret cluster props (a JSON object) from this inherited descriptor, then close it")
		props     multiFlag
		tags      multiFlag
	)
	fs.Var(&props, "cluster-prop", "client property k=v for an external cluster (repeatable)")
	fs.Var(&tags, "tag", "extra key=value name part, e.g. aa=a (repeatable)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(usage, "usage: fplab rung [flags]")
			fs.SetOutput(usage)
			fs.PrintDefaults()
		}
		return Cell{}, Profiles{}, fmt.Errorf("rung: %w", err)
	}
	if fs.NArg() > 0 {
		return Cell{}, Profiles{}, fmt.Errorf("rung: unexpected argument %q", fs.Arg(0))
	}
	p, err := ParsePath(*path)
	if err != nil {
		return Cell{}, Profiles{}, err
	}
	f, err := workloads.ParseFormat(*format)
	if err != nil {
		return Cell{}, Profiles{}, err
	}
	var crcOn bool
	switch *crc {
	case "on":
		crcOn = true
	case "off":
	default:
		return Cell{}, Profiles{}, fmt.Errorf("rung: --crc must be on or off, got %q", *crc)
	}
	pm, err := clusters.ParseProps(props)
	if err != nil {
		return Cell{}, Profiles{}, err
	}
	if *secretsFD > 0 {
		secrets, err := readSecrets(*secretsFD)
		if err != nil {
			return Cell{}, Profiles{}, err
		}
		if pm, err = mergeSecrets(pm, secrets); err != nil {
			return Cell{}, Profiles{}, err
		}
	}
	var bs []string
	if *bootstrap != "" {
		if bs, err = clusters.ParseBootstrap(*bootstrap); err != nil {
			return Cell{}, Profiles{}, err
		}
	}
	c := Cell{
		Path: p, Format: f, Batch: *batch, Brokers: *brokers, Alloc: *allocName, CRC: crcOn,
		Cluster: *cluster, Bootstrap: bs, Props: pm, Topic: *topic, Partitions: *parts,
		Records: *records, Seed: *seed, Schema: *schema, Tags: tags, Timeout: *timeout,
		HashCache: *hashCache, CkptInterval: *ckptIv, Failures: *failures, KillSeed: *killSeed, CkptDir: *ckptDir, Role: *role,
		FaultSocket: *faultSock,
	}
	if len(c.Props) == 0 {
		c.Props = nil
	}
	return c, Profiles{CPU: *cpuProf, Mem: *memProf}, c.validate()
}

// multiFlag collects a repeated flag.
type multiFlag []string

func (l *multiFlag) String() string     { return strings.Join(*l, ",") }
func (l *multiFlag) Set(s string) error { *l = append(*l, s); return nil }

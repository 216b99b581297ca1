package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/internal/listflag"
	"github.com/fastpathlab/fplab/workloads"
)

// probeTimeout bounds the check that every bootstrap broker answers before
// a load: a live broker answers in milliseconds, a dead one refuses at
// once, and only a host that drops packets uses the bound.
const probeTimeout = 10 * time.Second

// runLoad loads a corpus into a cluster (what the ladder does once per
// format and cluster), for manual cells and debugging.
func runLoad(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("load", stderr)
	var (
		bootstrap = fs.String("bootstrap", "", "bootstrap servers, host:port[,host:port...]")
		format    = fs.String("format", cell.FormatJSON, "message format: "+strings.Join(cell.Formats(), ", "))
		schema    = fs.String("schema", "bid", "corpus schema: bid or bid-wide")
		records   = fs.Int("records", 100000, "record count")
		seed      = fs.Uint64("seed", 1, "corpus seed")
		parts     = fs.Int("partitions", 6, "partition count")
		topic     = fs.String("topic", "", "topic name (default: derived from the corpus)")
		timeout   = fs.Duration("timeout", 5*time.Minute, "limit for the whole load")
		props     listflag.Strings
	)
	fs.Var(&props, "cluster-prop", "client property k=v (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	bs, err := cell.ParseBootstrap(*bootstrap)
	if err != nil {
		return err
	}
	pm, err := cell.ParseProps(props)
	if err != nil {
		return err
	}
	f, err := workloads.ParseFormat(*format)
	if err != nil {
		return err
	}
	s, err := workloads.SchemaByName(*schema)
	if err != nil {
		return err
	}
	codec, err := workloads.NewCodec(f, s)
	if err != nil {
		return err
	}
	if *records <= 0 {
		return fmt.Errorf("--records must be > 0, got %d", *records)
	}
	corpus := workloads.NewCorpus(s, codec, *seed, *records)
	name := *topic
	if name == "" {
		name = fmt.Sprintf("%s-p%d", corpus.ID(), *parts)
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	cl := clusters.Cluster{Bootstrap: bs, Props: pm}
	// Every broker must answer before anything is written: a dead one is
	// named at once, not after franz-go's retries. During the load, Load's
	// own watch names a broker that dies.
	if err := clusters.Probe(ctx, cl, probeTimeout); err != nil {
		return err
	}
	ready, err := clusters.TopicReady(ctx, cl, name, *parts, *records)
	if err != nil {
		return err
	}
	if !ready {
		st, err := clusters.Load(ctx, cl, name, *parts, *records, corpus.Message)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "load: %d records, %d bytes in %v (%.0f rec/s)\n", st.Records, st.Bytes, st.Duration.Round(time.Millisecond), st.RecordsPerSec())
	}
	fmt.Fprintln(stdout, name)
	return nil
}

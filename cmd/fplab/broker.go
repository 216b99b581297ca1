package main

import (
	"context"
	"fmt"
	"io"

	"github.com/fastpathlab/fplab/clusters"
)

func runBroker(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("broker", stderr)
	brokers := fs.Int("brokers", 1, "number of brokers (1..9)")
	parts := fs.Int("partitions", 6, "default partitions of auto-created topics")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	ctx, cancel := clusters.ContextUntilStdinEOF(ctx)
	defer cancel()
	return clusters.RunEmbedded(ctx, *brokers, *parts, stdout)
}

// Command fplab-history keeps runs over time: the history store, its
// change points, bisect, backfill and the site (docs/history.md). It is
// fplab history's binary, apart from fplab so that the database drivers
// and the site's renderer never load into a measured child; fplab history
// forwards to it, and fplab compare and fplab report ask it where a run
// stands against the history.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/fastpathlab/fplab/internal/cli"
	"github.com/fastpathlab/fplab/internal/oneline"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is fplab-history with args, returning its exit status: 0, 1 for an
// error (one line on stderr, "fplab history: <error>"), 2 for -h.
func run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := runHistory(ctx, args, stdout, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 2
		}
		fmt.Fprintf(stderr, "fplab history: %s\n", oneline.Err(err))
		return 1
	}
	return 0
}

// newFlags is the flag set of fplab history's subcommand name.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	return cli.NewFlags("fplab", name, stderr)
}

// Command fplab is Fastpath Lab's one CLI: it runs ladders of consume
// cells, one cell (rung), an embedded broker, and the reports over runs.
// It parses every subcommand's flags except rung's, which ladder/rungargs
// parses (the inverse of the argv the ladder writes for a child).
//
// It is the only place that writes a prefix: a subcommand's error, a bad
// flag included, is one line on stderr, "fplab <command>: <error>", and the
// library errors it prints name no package (they carry their position and
// cause instead, e.g. a ladder.SpecError's file:line).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"sort"
	"syscall"

	"github.com/fastpathlab/fplab/internal/cli"
	"github.com/fastpathlab/fplab/internal/oneline"
)

// Set by the Makefile with -ldflags -X.
var (
	commit = "unknown"
	dirty  = "false"
)

// A command runs with its arguments (after the command name), writing
// its output to stdout and its diagnostics to stderr.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

var commands = map[string]command{
	"ladder":  {"run a spec's cells in child processes; prints the run directory last", runLadder},
	"report":  {"write report.md and plots for a run directory", runReport},
	"compare": {"benchstat-style deltas between two runs; non-zero exit on a regression or an incomplete NEW run", runCompare},
	"micro":   {"run one micro-benchmark (crossthread malloc/free, crc32c, decode) as a ladder result", runMicro},
	"profile": {"where a profiled cell spent its time (top), or where two cells differ (diff)", runProfile},
	"rung":    {"run ONE cell and print its result in Go benchmark format", runRung},
	"load":    {"load a seeded corpus into a cluster and print its topic", runLoad},
	"broker":  {"run an embedded Kafka-protocol cluster (kfake) until stdin closes or a signal", runBroker},
	"history": {"keep runs over time: add runs, list them, print a cell's figure over commits", runHistory},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is fplab with args (os.Args[1:]) writing to stdout and stderr, and
// returns its exit status (docs/exit-codes.md): 0, 1 for an error (one
// line on stderr, "fplab <command>: <error>"), 2 for usage (help, no or an
// unknown command). Tests run it in process.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		return 2
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "fplab: unknown command %q (run fplab help)\n", args[0])
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := cmd.run(ctx, args[1:], stdout, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 2
		}
		var printed errPrinted
		if errors.As(err, &printed) {
			return printed.code
		}
		fmt.Fprintf(stderr, "fplab %s: %s\n", args[0], oneline.Err(err))
		return 1
	}
	return 0
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: fplab <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
}

// newFlags is the flag set of fplab's command name (cli.NewFlags).
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	return cli.NewFlags("fplab", name, stderr)
}

func goarch() string { return runtime.GOARCH }

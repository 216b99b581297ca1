// Command fplab is Fastpath Lab's one CLI: it runs ladders of consume
// cells, one cell (rung), an embedded broker, and the reports over runs.
// It is the only place that parses flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"sort"
	"strings"
	"syscall"
)

// Set by the Makefile with -ldflags -X.
var (
	commit = "unknown"
	dirty  = "false"
)

type command struct {
	summary string
	run     func(ctx context.Context, args []string) error
}

var commands = map[string]command{
	"ladder":  {"run a spec's cells in child processes; prints the run directory last", runLadder},
	"report":  {"write report.md and plots for a run directory", runReport},
	"compare": {"benchstat-style deltas between two runs; non-zero exit on a regression or an incomplete NEW run", runCompare},
	"micro":   {"run one micro-benchmark (crossthread malloc/free, crc32c) as a ladder result", runMicro},
	"profile": {"where a profiled cell spent its time (top), or where two cells differ (diff)", runProfile},
	"rung":    {"run ONE cell and print its result in Go benchmark format", runRung},
	"load":    {"load a seeded corpus into a cluster and print its topic", runLoad},
	"broker":  {"run an embedded Kafka-protocol cluster (kfake) until stdin closes or a signal", runBroker},
}

func main() {
	os.Exit(mainErr(os.Args[1:]))
}

func mainErr(args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage()
		return 2
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(os.Stderr, "fplab: unknown command %q (run fplab help)\n", args[0])
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := cmd.run(ctx, args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 2
		}
		fmt.Fprintln(os.Stderr, oneLine(err.Error()))
		return 1
	}
	return 0
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: fplab <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-8s %s\n", n, commands[n].summary)
	}
}

// oneLine keeps an error on one line, as the lab promises for bad input.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// newFlags returns a flag set that returns errors instead of exiting or
// printing them: mainErr prints a bad flag's error once, on one line. Only
// -h prints the flags, to stderr.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("fplab "+name, flag.ContinueOnError)
	out := &flagErrors{}
	fs.SetOutput(out)
	fs.Usage = func() {
		if out.wrote {
			return // a bad flag: the flag package wrote its error, mainErr prints it
		}
		fmt.Fprintf(os.Stderr, "usage: fplab %s [flags] [args]\n", name)
		fs.SetOutput(os.Stderr)
		fs.PrintDefaults()
		fs.SetOutput(out)
	}
	return fs
}

// flagErrors swallows what the flag package prints for a bad flag (the
// error it also returns) and notes that it did: the flag package calls
// Usage after writing an error, and for -h without one.
type flagErrors struct{ wrote bool }

func (w *flagErrors) Write(p []byte) (int, error) {
	w.wrote = true
	return len(p), nil
}

// listFlag collects a repeated flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

func goarch() string { return runtime.GOARCH }

// Package cli holds what the lab's commands share about their flags: a
// flag set whose bad flag is one error, printed once by the caller.
package cli

import (
	"flag"
	"fmt"
	"io"
)

// NewFlags returns a flag set for "prog name" that returns errors instead
// of exiting or printing them: the command prints a bad flag's error
// once, on one line, with its prefix like any other error. Only -h prints
// the flags, to stderr.
func NewFlags(prog, name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(prog+" "+name, flag.ContinueOnError)
	out := &flagErrors{}
	fs.SetOutput(out)
	fs.Usage = func() {
		if out.wrote {
			return // a bad flag: the flag package wrote its error, the caller prints it
		}
		fmt.Fprintf(stderr, "usage: %s %s [flags] [args]\n", prog, name)
		fs.SetOutput(stderr)
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

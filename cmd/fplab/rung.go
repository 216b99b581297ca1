package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/fastpathlab/fplab/ladder/rung"
	_ "github.com/fastpathlab/fplab/ladder/rung/jvmref" // path=java, java-perf and flink register their runners
	"github.com/fastpathlab/fplab/ladder/rungargs"
)

func runRung(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := rungargs.Parse(args, stderr)
	if err != nil {
		return err
	}
	stop, err := startProfiles(c.CPUProfile, c.MemProfile)
	if err != nil {
		return err
	}
	err = rung.Run(ctx, c, rung.Build{Commit: commit, Dirty: dirty == "true"}, stdout)
	if perr := stop(); err == nil {
		err = perr
	}
	return err
}

// startProfiles starts the rung's CPU profile (if cpu is set) and returns
// a function that stops it and writes an allocs profile (if mem is set):
// the files `fplab ladder --profile` keeps and `fplab profile` reads.
func startProfiles(cpu, mem string) (func() error, error) {
	var cf *os.File
	if cpu != "" {
		f, err := os.Create(cpu)
		if err != nil {
			return nil, fmt.Errorf("cpu profile: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, fmt.Errorf("cpu profile: %w", err)
		}
		cf = f
	}
	return func() error {
		if cf != nil {
			pprof.StopCPUProfile()
			if err := cf.Close(); err != nil {
				return fmt.Errorf("cpu profile: %w", err)
			}
		}
		if mem == "" {
			return nil
		}
		f, err := os.Create(mem)
		if err != nil {
			return fmt.Errorf("allocs profile: %w", err)
		}
		runtime.GC()
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			f.Close()
			return fmt.Errorf("allocs profile: %w", err)
		}
		return f.Close()
	}, nil
}

package main

import (
	"context"
	"os"

	"github.com/fastpathlab/fplab/ladder/rung"
)

func runRung(ctx context.Context, args []string) error {
	c, prof, err := rung.ParseArgs(args, os.Stderr)
	if err != nil {
		return err
	}
	stop, err := startProfiles(prof.CPU, prof.Mem)
	if err != nil {
		return err
	}
	err = rung.Run(ctx, c, rung.Build{Commit: commit, Dirty: dirty == "true"}, os.Stdout)
	if perr := stop(); err == nil {
		err = perr
	}
	return err
}

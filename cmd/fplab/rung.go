package main

import (
	"context"
	"io"

	"github.com/fastpathlab/fplab/ladder/rung"
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

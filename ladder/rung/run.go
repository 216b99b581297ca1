package rung

import (
	"context"
	"fmt"
	"io"

	"github.com/fastpathlab/fplab/alloc"
	"github.com/fastpathlab/fplab/ladder/rungargs"
)

// Run measures one cell and writes its result to w in Go benchmark format.
// It returns an error, and writes nothing, if any of the cell's claims does
// not hold. The cell's path picks the Runner that measures it (Register);
// a path no file of the binary registered fails with one line.
func Run(ctx context.Context, c rungargs.Cell, b Build, w io.Writer) error {
	if err := c.Validate(); err != nil {
		return err
	}
	run, err := runners.lookup(c.Path)
	if err != nil {
		return err
	}
	if err := b.check(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()

	if alloc.Name() != c.Alloc {
		return fmt.Errorf("cell claims alloc=%s but this binary is built for alloc=%s (run bin/fplab-%s)", c.Alloc, alloc.Name(), c.Alloc)
	}
	if _, err := alloc.Proof(); err != nil {
		return fmt.Errorf("alloc=%s not in force: %w", c.Alloc, err)
	}
	if c.Role == rungargs.RoleProducer {
		return runProducer(ctx, &c, w)
	}
	return run(ctx, &c, b, w)
}

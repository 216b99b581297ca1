package source_test

import (
	"github.com/fastpathlab/fplab/clusters"
)

// stopAtExit stops the shared cluster when the test binary's tests end.
var atExit []func()

func stopAtExit(e *clusters.Embedded) { atExit = append(atExit, func() { _ = e.Stop() }) }

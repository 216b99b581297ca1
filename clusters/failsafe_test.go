package clusters_test

import (
	"testing"

	"github.com/fastpathlab/fplab/internal/failsafe"
)

// failSafe and await are internal/failsafe's, by their short local names.
const failSafe = failsafe.Timeout

func await[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	return failsafe.Await(t, ch, what)
}

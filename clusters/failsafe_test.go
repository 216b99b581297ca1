package clusters_test

import (
	"testing"
	"time"
)

// failSafe bounds a wait for an event that should come in milliseconds.
// It is no measure of speed: it only turns a hang into a failure that says
// what never happened, long before go test's own timeout kills the binary
// without running cleanups (and so without stopping brokers).
const failSafe = 60 * time.Second

// await returns the first value from ch, failing the test with what if
// none comes within failSafe.
func await[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	timer := time.NewTimer(failSafe)
	defer timer.Stop()
	select {
	case v := <-ch:
		return v
	case <-timer.C:
		t.Fatalf("%s: nothing after %v", what, failSafe)
		var zero T
		return zero
	}
}

// Package failsafe is the tests' one bound on a wait for an event: it is no
// measure of speed, it only turns a hang into a failure that says what
// never happened, long before go test's own timeout kills the binary
// without running cleanups (and so without stopping brokers). Test-only:
// nothing in a measured path imports it.
package failsafe

import (
	"testing"
	"time"
)

// Timeout bounds a wait for an event that should come in milliseconds.
const Timeout = 60 * time.Second

// Await returns the first value from ch, failing the test with what if
// none comes within Timeout.
func Await[T any](t testing.TB, ch <-chan T, what string) T {
	t.Helper()
	timer := time.NewTimer(Timeout)
	defer timer.Stop()
	select {
	case v := <-ch:
		return v
	case <-timer.C:
		t.Fatalf("%s: nothing after %v", what, Timeout)
		var zero T
		return zero
	}
}

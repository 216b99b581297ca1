package failsafe_test

import (
	"testing"

	"github.com/fastpathlab/fplab/internal/failsafe"
)

func TestAwaitReturnsTheValue(t *testing.T) {
	ch := make(chan int, 1)
	ch <- 7
	if got := failsafe.Await(t, ch, "seven"); got != 7 {
		t.Fatalf("Await = %d, want 7", got)
	}
}

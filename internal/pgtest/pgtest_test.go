package pgtest

import (
	"testing"

	"github.com/fastpathlab/fplab/internal/proctest"
)

// A server started is a server stopped: after Stop, no postgres process
// of it is left.
func TestStartStop(t *testing.T) {
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	pid := s.cmd.Process.Pid
	if err := exec1(s.URL("postgres"), "SELECT 1"); err != nil {
		s.Stop()
		t.Fatal(err)
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if proctest.Alive(pid) {
		t.Fatalf("postgres %d still running after Stop", pid)
	}
}

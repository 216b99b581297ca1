package proctest

import (
	"os"
	"os/exec"
	"testing"
)

func TestAliveStat(t *testing.T) {
	for stat, want := range map[string]bool{
		"12 (fplab) S 1 12":        true,
		"12 (fplab rung) S 1 12":   true,
		"12 (a) Z) R 1 12":         true,
		"12 (fplab broker) Z 1 12": false,
		"12 (x":                    false,
		"":                         false,
	} {
		if got := aliveStat(stat); got != want {
			t.Errorf("aliveStat(%q) = %v, want %v", stat, got, want)
		}
	}
}

func TestAlive(t *testing.T) {
	if !Alive(os.Getpid()) {
		t.Fatal("this process is not alive")
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true(1):", err)
	}
	if Alive(cmd.Process.Pid) {
		t.Errorf("reaped child %d still alive", cmd.Process.Pid)
	}
}

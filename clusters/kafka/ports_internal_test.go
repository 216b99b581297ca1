package kafka

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFreePortsBelowEphemeralRange(t *testing.T) {
	hi := ephemeralLow()
	ports, err := freePorts(8)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, p := range ports {
		if p < pickLow || p >= hi {
			t.Errorf("port %d outside [%d, %d)", p, pickLow, hi)
		}
		if seen[p] {
			t.Errorf("port %d picked twice", p)
		}
		seen[p] = true
		if err := checkFree(p); err != nil {
			t.Errorf("picked port not free: %v", err)
		}
	}
}

func TestLostBind(t *testing.T) {
	dir := t.TempDir()
	for name, tc := range map[string]struct {
		log  string
		want bool
	}{
		"bind":  {"[t] ERROR [KafkaServer id=0] Fatal error\norg.apache.kafka.common.KafkaException: Socket server failed to bind to 127.0.0.1:23456: Address already in use.\n", true},
		"other": {"[t] ERROR [KafkaServer id=0] Fatal error during startup\njava.lang.OutOfMemoryError: Java heap space\n", false},
	} {
		p := filepath.Join(dir, name+".log")
		if err := os.WriteFile(p, []byte(tc.log), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := lostBind(p); got != tc.want {
			t.Errorf("%s: lostBind = %v, want %v", name, got, tc.want)
		}
	}
	if lostBind(filepath.Join(dir, "missing.log")) {
		t.Error("a missing log reports a lost bind")
	}
}

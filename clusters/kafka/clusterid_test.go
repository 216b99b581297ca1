package kafka

import (
	"strings"
	"testing"
)

// kafka-storage reads an argument that starts with '-' as an option: no
// cluster id may.
func TestClusterIDNeverLooksLikeAnOption(t *testing.T) {
	for range 2000 {
		id, err := newClusterID()
		if err != nil {
			t.Fatal(err)
		}
		if len(id) != 22 || strings.HasPrefix(id, "-") {
			t.Fatalf("cluster id %q", id)
		}
	}
}

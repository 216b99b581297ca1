package clusters

import (
	"os"
	"testing"
)

func TestIsStream(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	fi, err := r.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if !isStream(fi.Mode()) {
		t.Errorf("a pipe (mode %v) is not watched", fi.Mode())
	}
	null, err := os.Stat(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	if isStream(null.Mode()) {
		t.Errorf("%s (mode %v) would be watched and end a broker at once", os.DevNull, null.Mode())
	}
}

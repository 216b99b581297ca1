package rungargs

import (
	"slices"
	"testing"
)

func TestWrapArgv(t *testing.T) {
	argv := []string{"/bin/fplab", "rung", "--path", "fast"}
	t.Setenv(WrapperEnv, "")
	if got := WrapArgv(argv); !slices.Equal(got, argv) {
		t.Errorf("no wrapper: %q", got)
	}
	t.Setenv(WrapperEnv, "  qemu-aarch64-static  -L /usr/aarch64-linux-gnu ")
	want := []string{"qemu-aarch64-static", "-L", "/usr/aarch64-linux-gnu", "/bin/fplab", "rung", "--path", "fast"}
	if got := WrapArgv(argv); !slices.Equal(got, want) {
		t.Errorf("wrapped: %q, want %q", got, want)
	}
	if got := WrapArgv(nil); got != nil {
		t.Errorf("empty argv wrapped: %q", got)
	}
}

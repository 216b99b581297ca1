package cthreads

import (
	"errors"
	"testing"
	"unsafe"
)

// TestCodesNamed pins the Go mirror of fpl_xt_code: every code has its
// own fpl_xt_strerror text, and a value outside the enum has none.
func TestCodesNamed(t *testing.T) {
	seen := map[string]Code{}
	for _, c := range []Code{OK, NoMem, Thread, Corrupt, BadArg} {
		msg := c.Error()
		if msg == "unknown error" {
			t.Errorf("code %d has no text in fpl_xt_strerror", int(c))
		}
		if prev, dup := seen[msg]; dup {
			t.Errorf("codes %d and %d share the text %q", int(prev), int(c), msg)
		}
		seen[msg] = c
	}
	if msg := Code(-99).Error(); msg != "unknown error" {
		t.Errorf("Code(-99) = %q, want unknown error", msg)
	}
}

func TestCrossThreadAndBadArgs(t *testing.T) {
	d, err := CrossThread(1000, 280)
	if err != nil || d <= 0 {
		t.Fatalf("CrossThread(1000, 280) = %v, %v", d, err)
	}
	if _, err := CrossThread(0, 280); !errors.Is(err, BadArg) {
		t.Errorf("CrossThread(0, 280) = %v, want BadArg", err)
	}
	if _, err := NewBlock(0, 1); !errors.Is(err, BadArg) {
		t.Errorf("NewBlock(0) = %v, want BadArg", err)
	}
	bg, err := StartBackground(256)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bg.Stop(); err != nil {
		t.Errorf("background traffic: %v", err)
	}
	if err := ChurnLocal(2, 7); err != nil {
		t.Errorf("ChurnLocal: %v", err)
	}
}

// TestBlockCorruptionIsCorrupt: a handed-off block whose bytes changed
// comes back as Corrupt, an intact one as nil.
func TestBlockCorruptionIsCorrupt(t *testing.T) {
	b, err := NewBlock(280, 0x5a)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.CheckFree(); err != nil {
		t.Fatalf("intact block: %v", err)
	}
	b, err = NewBlock(280, 0x5a)
	if err != nil {
		t.Fatal(err)
	}
	unsafe.Slice((*byte)(b.p), b.Size)[b.Size-1] ^= 0xff
	if err := b.CheckFree(); !errors.Is(err, Corrupt) {
		t.Fatalf("changed block: %v, want Corrupt", err)
	}
}

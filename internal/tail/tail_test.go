package tail

import (
	"strings"
	"testing"
)

func TestKeepsTheTail(t *testing.T) {
	b := New(8)
	b.Write([]byte("abc\n"))
	b.Write([]byte("defgh\nij"))
	if got := string(b.b); got != "defgh\nij" {
		t.Errorf("kept %q, want the last 8 bytes %q", got, "defgh\nij")
	}
	b.Write([]byte(strings.Repeat("x", 20)))
	if got := string(b.b); got != strings.Repeat("x", 8) {
		t.Errorf("after a long write kept %q", got)
	}
}

func TestLinesAndString(t *testing.T) {
	b := New(1 << 10)
	b.Write([]byte("one\n\ntwo \r\nthree\n"))
	if got := b.Lines(2); got != "two\nthree" {
		t.Errorf("Lines(2) = %q", got)
	}
	if got := b.Lines(1); got != "three" {
		t.Errorf("Lines(1) = %q", got)
	}
	if got := b.String(); got != "one |  | two \r | three" {
		t.Errorf("String = %q", got)
	}
}

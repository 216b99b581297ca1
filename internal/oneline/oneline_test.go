package oneline

import (
	"errors"
	"testing"
)

func TestOf(t *testing.T) {
	for in, want := range map[string]string{
		"":                   "",
		"a":                  "a",
		"  a \n b\t\tc\r\n ": "a b c",
		"line one\nline two": "line one line two",
	} {
		if got := Of(in); got != want {
			t.Errorf("Of(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Err(errors.New("x:\n  y")); got != "x: y" {
		t.Errorf("Err = %q", got)
	}
	if got := Err(nil); got != "" {
		t.Errorf("Err(nil) = %q", got)
	}
}

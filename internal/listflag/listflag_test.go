package listflag

import (
	"flag"
	"io"
	"reflect"
	"testing"
)

func TestRepeated(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var l Strings
	fs.Var(&l, "p", "")
	if err := fs.Parse([]string{"-p", "a=1", "-p", "b=2,3"}); err != nil {
		t.Fatal(err)
	}
	if want := (Strings{"a=1", "b=2,3"}); !reflect.DeepEqual(l, want) {
		t.Errorf("values = %q, want %q", l, want)
	}
	if got := l.String(); got != "a=1,b=2,3" {
		t.Errorf("String = %q", got)
	}
}

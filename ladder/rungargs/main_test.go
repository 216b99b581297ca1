package rungargs_test

import (
	"os"
	"testing"
)

// TestMain lets the secrets tests start this binary as a child:
// `<test binary> parse-args ...` parses its flags and reports what it read.
// A child never runs the tests again.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "parse-args" {
		os.Exit(parseArgsMain(os.Args[2:]))
	}
	os.Exit(m.Run())
}

package alloc

import (
	"fmt"
	"strings"
)

// Check is one piece of evidence that the claimed allocator is in force.
type Check struct {
	Name   string // short key, e.g. "c-malloc-owned"
	OK     bool   // whether the observation supports the claim
	Detail string // what was observed
}

// Evidence is what Proof observed in this process.
type Evidence struct {
	Allocator string  // the variant this binary claims (Name())
	Version   string  // Version()
	Checks    []Check // every observation, passing or not
}

// Failed returns the checks that contradict the claim.
func (e Evidence) Failed() []Check {
	var out []Check
	for _, c := range e.Checks {
		if !c.OK {
			out = append(out, c)
		}
	}
	return out
}

// Err returns a one-line error naming every failed check, or nil.
func (e Evidence) Err() error {
	bad := e.Failed()
	if len(bad) == 0 {
		return nil
	}
	parts := make([]string, len(bad))
	for i, c := range bad {
		parts[i] = c.Name + ": " + c.Detail
	}
	return fmt.Errorf("%s (%s) not in force: %s", e.Allocator, e.Version, strings.Join(parts, "; "))
}

// String renders the evidence on one line per check.
func (e Evidence) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "allocator=%s version=%q\n", e.Allocator, e.Version)
	for _, c := range e.Checks {
		mark := "ok"
		if !c.OK {
			mark = "FAIL"
		}
		fmt.Fprintf(&b, "  %-4s %s: %s\n", mark, c.Name, c.Detail)
	}
	return b.String()
}

func (e *Evidence) add(name string, ok bool, format string, args ...any) {
	e.Checks = append(e.Checks, Check{Name: name, OK: ok, Detail: fmt.Sprintf(format, args...)})
}

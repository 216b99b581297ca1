package cell

import (
	"fmt"
	"strconv"
	"strings"
)

// Rescale is a checkpointing cell's change of parallelism: its first
// reader process runs From subtasks, and every reader restored after a
// failure runs To, so a checkpoint taken with From readers is restored
// into To (the zero value: one reader, no rescale). It is written
// <From>to<To>, e.g. 3to2.
type Rescale struct{ From, To int }

// MaxSubtasks bounds both sides of a Rescale.
const MaxSubtasks = 64

// IsZero reports whether r is no rescale.
func (r Rescale) IsZero() bool { return r == Rescale{} }

// String is r's name value, "" for no rescale.
func (r Rescale) String() string {
	if r.IsZero() {
		return ""
	}
	return strconv.Itoa(r.From) + "to" + strconv.Itoa(r.To)
}

// Subtasks is how many subtasks reader process i (from 0) runs; 0 (one
// reader, not split) for no rescale.
func (r Rescale) Subtasks(i int) int {
	if i == 0 {
		return r.From
	}
	return r.To
}

// ParseRescale parses <from>to<to> (each 1..MaxSubtasks, different);
// "off" is no rescale.
func ParseRescale(s string) (Rescale, error) {
	if s == Off {
		return Rescale{}, nil
	}
	from, to, ok := strings.Cut(s, "to")
	a, errA := strconv.Atoi(from)
	b, errB := strconv.Atoi(to)
	r := Rescale{From: a, To: b}
	switch {
	case !ok || errA != nil || errB != nil || r.String() != s:
		return Rescale{}, fmt.Errorf("rescale %q is not <from>to<to>, e.g. 3to2", s)
	case a < 1 || b < 1 || a > MaxSubtasks || b > MaxSubtasks:
		return Rescale{}, fmt.Errorf("rescale %s: subtasks must be 1..%d", s, MaxSubtasks)
	case a == b:
		return Rescale{}, fmt.Errorf("rescale %s keeps the parallelism; leave it off", s)
	}
	return r, nil
}

// MarshalText writes r as its name value, "off" for no rescale.
func (r Rescale) MarshalText() ([]byte, error) {
	if r.IsZero() {
		return []byte(Off), nil
	}
	return []byte(r.String()), nil
}

// UnmarshalText is ParseRescale.
func (r *Rescale) UnmarshalText(b []byte) error {
	v, err := ParseRescale(string(b))
	*r = v
	return err
}

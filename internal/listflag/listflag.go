// Package listflag is the one repeatable command-line flag: each use of
// the flag appends its value. Both flag parsers of the lab (cmd/fplab's
// subcommands and the rung child's in ladder/rungargs) use it.
package listflag

import "strings"

// Strings collects every value of a repeated flag, in order; it is a
// flag.Value.
type Strings []string

// String joins the values with commas.
func (l *Strings) String() string { return strings.Join(*l, ",") }

// Set appends one value.
func (l *Strings) Set(s string) error { *l = append(*l, s); return nil }

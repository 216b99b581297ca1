// Package oneline folds a message onto one line, as the lab promises for
// every error it prints about bad input: runs of white space, newlines
// included, become one space. Standard library only.
package oneline

import "strings"

// Of returns s with every run of white space replaced by one space and
// none at either end.
func Of(s string) string { return strings.Join(strings.Fields(s), " ") }

// Err returns err's message on one line ("" for a nil error).
func Err(err error) string {
	if err == nil {
		return ""
	}
	return Of(err.Error())
}

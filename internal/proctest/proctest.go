// Package proctest answers the tests' one question about a process they
// started and must leave stopped: is it still running? Test-only: nothing
// in a measured path imports it. Linux only (it reads /proc).
package proctest

import (
	"fmt"
	"os"
	"strings"
)

// Alive reports whether pid is a live process: it exists and is not a
// zombie. The state is the field after the parenthesised command name in
// /proc/<pid>/stat, found from the last ')' since a command name may hold
// spaces and parentheses.
func Alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	return aliveStat(string(b))
}

func aliveStat(stat string) bool {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 || i+2 >= len(stat) {
		return false
	}
	return stat[i+2] != 'Z'
}

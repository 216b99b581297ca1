package alloc

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// residentBytes reads the process's resident set size from /proc/self/statm.
func residentBytes() (int64, error) {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, fmt.Errorf("reading RSS: %w", err)
	}
	return parseStatm(string(b), os.Getpagesize())
}

// parseStatm returns the resident field (second, in pages) in bytes.
func parseStatm(s string, pageSize int) (int64, error) {
	f := strings.Fields(s)
	if len(f) < 2 {
		return 0, fmt.Errorf("/proc/self/statm: want >= 2 fields, got %q", s)
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil || pages < 0 {
		return 0, fmt.Errorf("/proc/self/statm: bad resident field %q", f[1])
	}
	return pages * int64(pageSize), nil
}

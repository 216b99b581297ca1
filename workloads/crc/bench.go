package crc

import (
	"fmt"
	"io"
	"runtime"
	"strings"
)

// BenchName is the top-level benchmark name Measure's results print under.
const BenchName = "BenchmarkCRC32C"

// WriteBench prints rs in Go benchmark format, preceded by configuration
// lines (goos, goarch, crc32c-hw, then config: extra "key: value" lines
// such as "cpu: ..." or "emulated: true"), so benchstat can set hosts side
// by side:
//
//	BenchmarkCRC32C/impl=sw-slicing8/size=128  4000000  301.2 ns/msg  425.0 MB/s
func WriteBench(w io.Writer, rs []Result, config ...string) error {
	if len(rs) == 0 {
		return errNoResults
	}
	lines := []string{
		"goos: " + runtime.GOOS,
		"goarch: " + runtime.GOARCH,
		"crc32c-hw: " + HardwareCRC(),
	}
	for _, c := range config {
		k, v, ok := strings.Cut(c, ": ")
		if !ok || k == "" || strings.ContainsAny(k, " \t\n") || strings.Contains(v, "\n") {
			return fmt.Errorf("config line %q is not \"key: value\"", c)
		}
		lines = append(lines, c)
	}
	for _, l := range lines {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return fmt.Errorf("write: %w", err)
		}
	}
	for _, r := range rs {
		if _, err := fmt.Fprintf(w, "%s/%s\t%d\t%.2f ns/msg\t%.2f MB/s\n", BenchName, r.Name(), r.Iters, r.NsPerMsg, r.MBps); err != nil {
			return fmt.Errorf("write: %w", err)
		}
	}
	return nil
}

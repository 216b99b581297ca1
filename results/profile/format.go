package profile

import (
	"fmt"
	"math"
	"strings"

	"github.com/fastpathlab/fplab/results/texttab"
)

// column is the header a value type gets in tables.
func (v ValueType) column() string {
	return v.Type
}

// perUnitName is the unit of a value per unit of work: ns/rec, B/rec,
// allocs/rec.
func (v ValueType) perUnitName() string {
	return v.shortUnit() + "/" + WorkUnit
}

func (v ValueType) shortUnit() string {
	switch v.Unit {
	case "nanoseconds":
		return "ns"
	case "bytes":
		return "B"
	case "count":
		if v.Type == "alloc_objects" {
			return "allocs"
		}
		return "n"
	}
	return v.Unit
}

// formatValue prints an absolute value in its unit: durations as s, ms,
// µs or ns; bytes and counts with SI prefixes.
func (v ValueType) formatValue(x float64) string {
	switch v.Unit {
	case "nanoseconds":
		return formatDuration(x)
	case "bytes":
		return formatSI(x) + "B"
	}
	return formatSI(x)
}

func formatDuration(ns float64) string {
	a := math.Abs(ns)
	switch {
	case a >= 1e9:
		return fmt.Sprintf("%.2fs", ns/1e9)
	case a >= 1e6:
		return fmt.Sprintf("%.1fms", ns/1e6)
	case a >= 1e3:
		return fmt.Sprintf("%.1fµs", ns/1e3)
	}
	return fmt.Sprintf("%.0fns", ns)
}

// formatSI prints a count or a byte figure: the decimal prefix benchunit
// picks for it (texttab.Scale, as every table of the lab) with about three
// significant digits (formatNum); a whole number below 1000 as it is.
func formatSI(x float64) string {
	sc := texttab.Scale(x)
	if sc.Factor == 1 && x == math.Trunc(x) {
		return fmt.Sprintf("%.0f", x)
	}
	return formatNum(x/sc.Factor) + sc.Prefix
}

// formatNum prints about three significant digits without an exponent.
func formatNum(x float64) string {
	a := math.Abs(x)
	switch {
	case a == 0:
		return "0"
	case a >= 100:
		return fmt.Sprintf("%.0f", x)
	case a >= 10:
		return fmt.Sprintf("%.1f", x)
	case a >= 1:
		return fmt.Sprintf("%.2f", x)
	}
	return fmt.Sprintf("%.3f", x)
}

func formatShare(f float64) string {
	return fmt.Sprintf("%.1f%%", 100*f)
}

// signed puts a "+" before a non-negative formatted delta.
func signed(x float64, s string) string {
	if x >= 0 && !strings.HasPrefix(s, "+") {
		return "+" + s
	}
	return s
}

// cgoNote is the limit every CPU rendering states.
const cgoNote = "Go's profiler sees cgo time only as runtime.cgocall and _Cfunc_ frames on Go threads; " +
	"librdkafka's own threads (rdk:main, rdk:broker*) are invisible to it: use perf for them."

// allocsNote is the limit every heap rendering states.
const allocsNote = "A Go heap profile is sampled (one sample per 512 KiB allocated, scaled up) and holds Go allocations only; " +
	"librdkafka's malloc is invisible to it."

func (k Kind) note() string {
	if k == KindAllocs {
		return allocsNote
	}
	return cgoNote
}

package texttab

import (
	"math"
	"strconv"
	"strings"

	"golang.org/x/perf/benchunit"
)

// Scale is the scale benchunit gives vals with decimal prefixes: the
// value nearest zero keeps at least four significant digits. A table row
// shares one Scale, as benchstat's rows do, so its figures line up.
func Scale(vals ...float64) benchunit.Scaler {
	return benchunit.CommonScale(vals, benchunit.Decimal)
}

// Number prints v on its own Scale: "4.500M", "504.5m", "250.6", "0.000".
func Number(v float64) string { return Scale(v).Format(v) }

// Label prints v as Number does, less the trailing zeros of its
// fraction: "2.5M", "3M", "950", "0". An axis tick is a round number;
// its zeros are not measured digits.
func Label(v float64) string {
	s := Scale(v)
	n := s.Format(v)
	num := strings.TrimSuffix(n, s.Prefix)
	if strings.Contains(num, ".") {
		num = strings.TrimSuffix(strings.TrimRight(num, "0"), ".")
	}
	if num == "-0" {
		num = "0"
	}
	return num + s.Prefix
}

// Compact prints v for prose (captions, legends, reasons): whole numbers
// and values from 1000 up without decimals, smaller ones with 4
// significant digits, no unit scaling.
func Compact(v float64) string {
	if math.Abs(v) >= 1000 || v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

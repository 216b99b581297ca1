package results

import "strings"

// Direction says which way a unit improves.
type Direction int

const (
	// Neutral units (window-ms, rec/crossing, unknown units) describe a
	// run rather than judge it; they are never regressions.
	Neutral Direction = 0
	// HigherIsBetter units: throughput.
	HigherIsBetter Direction = 1
	// LowerIsBetter units: costs, latencies and replay.
	LowerIsBetter Direction = -1
)

// unitDirections is the explicit table behind Better.
var unitDirections = map[string]Direction{
	"rec/s": HigherIsBetter,
	"MB/s":  HigherIsBetter,

	"ns/rec":      LowerIsBetter,
	"cpu-ns/rec":  LowerIsBetter,
	"B/rec":       LowerIsBetter,
	"allocs/rec":  LowerIsBetter,
	"peak-RSS-MB": LowerIsBetter,
	"startup-ms":  LowerIsBetter,
	"recover-ms":  LowerIsBetter,
	"replay-rec":  LowerIsBetter,
	"lost-rec":    LowerIsBetter,
	"dup-rec":     LowerIsBetter,

	"window-ms":    Neutral,
	"rec/crossing": Neutral,
}

// Better returns the direction in which unit improves: the table above,
// plus every checkpoint latency "ckpt-<anything>-ms" (p50, p99, max,
// alignment wait, snapshot) as LowerIsBetter. Anything else is Neutral.
func Better(unit string) Direction {
	if d, ok := unitDirections[unit]; ok {
		return d
	}
	if strings.HasPrefix(unit, "ckpt-") && strings.HasSuffix(unit, "-ms") {
		return LowerIsBetter
	}
	return Neutral
}

// Worse reports whether going from old to new (both centers of unit) is a
// change for the worse, and by how much as a positive fraction of old.
// Neutral units and a zero old value never count as worse.
func Worse(unit string, old, new float64) (worse bool, by float64) {
	if old == 0 {
		return false, 0
	}
	change := new/old - 1
	switch Better(unit) {
	case HigherIsBetter:
		return change < 0, -change
	case LowerIsBetter:
		return change > 0, change
	}
	return false, 0
}

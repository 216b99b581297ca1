package headline

import (
	"fmt"
	"strings"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
)

// maxListed bounds the unresolved rows a sentence spells out per
// comparison; the rest are counted.
const maxListed = 3

// Sentences says what rows show in at most three sentences, for the top
// of a report: what is resolved (with its range of ratios and the floor
// it clears), what is not (with its figures), and what the run lacks.
// A comparison's Upstream figure is quoted beside its first mention.
//
//	fast reads 3.42-4.61× flink on json, avro and protobuf (resolved,
//	every interval outside the 6.1% A/A floor); fast/java on raw is not
//	resolved (0.97× [0.90, 1.05], p=0.31).
func Sentences(rows []Row) []string {
	var resolvedC, openC, missingC []string
	for _, g := range byComparison(rows) {
		var res, open, miss []Row
		for _, r := range g {
			switch r.Verdict {
			case Resolved:
				res = append(res, r)
			case Missing:
				miss = append(miss, r)
			default:
				open = append(open, r)
			}
		}
		c := g[0].Comparison
		upstream := c.Upstream
		if len(res) > 0 {
			resolvedC = append(resolvedC, resolvedClause(c, res, upstream))
			upstream = ""
		}
		if len(open) > 0 {
			openC = append(openC, openClause(c, open, len(g) > 1, upstream))
			upstream = ""
		}
		if len(miss) > 0 {
			whys := make([]string, len(miss))
			for i, r := range miss {
				whys[i] = r.Why
			}
			missingC = append(missingC, fmt.Sprintf("%s (%s)", c.Text, strings.Join(whys, "; ")))
		}
	}
	var out []string
	if len(resolvedC) > 0 {
		out = append(out, strings.Join(resolvedC, "; ")+".")
	}
	if len(openC) > 0 {
		out = append(out, strings.Join(openC, "; ")+".")
	}
	if len(missingC) > 0 {
		out = append(out, "Not measured: "+strings.Join(missingC, "; ")+".")
	}
	return out
}

// byComparison splits rows into runs of one comparison each.
func byComparison(rows []Row) [][]Row {
	var out [][]Row
	for i := range rows {
		if firstOf(rows, i) != "" {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], rows[i])
	}
	return out
}

// resolvedClause: "fast reads 3.42-4.61× flink on json, avro and protobuf
// (resolved, every interval outside the 6.1% A/A floor)".
func resolvedClause(c Comparison, rows []Row, upstream string) string {
	lo, hi := rows[0].Ratio.Ratio, rows[0].Ratio.Ratio
	for _, r := range rows {
		lo, hi = min(lo, r.Ratio.Ratio), max(hi, r.Ratio.Ratio)
	}
	span := formatNum(lo) + "-" + formatRatio(hi)
	if formatNum(lo) == formatNum(hi) {
		span = formatRatio(lo)
	}
	var qual string
	switch f := rows[0].Floor; {
	case !f.Known():
		qual = "resolved on p and the interval alone: no A/A floor for " + f.Unit
	case len(rows) == 1:
		qual = "resolved, outside the " + formatPct(f.Detectable) + " A/A floor"
	default:
		qual = "resolved, every interval outside the " + formatPct(f.Detectable) + " A/A floor"
	}
	if upstream != "" {
		qual += "; upstream reports " + upstream
	}
	return fmt.Sprintf("%s%s (%s)", phrase(c, rows[0].twin, span), place(c, rows), qual)
}

// phrase: "fast reads 3.42× flink", "mimalloc3's peak-RSS-MB is 0.81×
// go's", "fast reads 0.62× its decoder=none twin".
func phrase(c Comparison, twin bool, ratio string) string {
	a, b := partString(c.A), partString(c.B)
	if twin {
		b = "its " + b + " twin"
	}
	if c.Unit == results.UnitRecPerSec {
		return fmt.Sprintf("%s reads %s %s", a, ratio, b)
	}
	return fmt.Sprintf("%s's %s is %s %s's", a, c.Unit, ratio, b)
}

// place: " on raw", " on json, avro and protobuf", " on kafka for json
// and avro", or "".
func place(c Comparison, rows []Row) string {
	var on, labels []string
	for _, p := range c.On {
		on = append(on, partString(p))
	}
	for _, r := range rows {
		if l := labelWords(r.Label); l != "" {
			labels = append(labels, l)
		}
	}
	switch {
	case len(on) > 0 && len(labels) > 0:
		return " on " + strings.Join(on, ", ") + " for " + list(labels)
	case len(on) > 0:
		return " on " + strings.Join(on, ", ")
	case len(labels) > 0:
		return " on " + list(labels)
	}
	return ""
}

// openClause: "fast/java on raw is not resolved (0.97× [0.90, 1.05],
// p=0.31)", or for a comparison of several rows, each unresolved row's
// place and figures.
func openClause(c Comparison, rows []Row, several bool, upstream string) string {
	var s string
	if !several {
		s = fmt.Sprintf("%s is not resolved (%s)", c.Text, openFigures(rows[0]))
	} else {
		var items []string
		for i, r := range rows {
			if i == maxListed {
				items = append(items, fmt.Sprintf("%d more", len(rows)-maxListed))
				break
			}
			items = append(items, fmt.Sprintf("%s (%s)", labelWords(r.Label), openFigures(r)))
		}
		s = fmt.Sprintf("%s is not resolved on %s", c.Text, list(items))
	}
	if upstream != "" {
		s += ", where upstream reports " + upstream
	}
	return s
}

// openFigures are an unresolved row's figures and what it misses.
func openFigures(r Row) string {
	switch r.Verdict {
	case TooFewReps:
		return fmt.Sprintf("%s, %s: too few for an interval", formatRatio(r.Ratio.Ratio), formatN(r))
	case WithinFloor:
		return fmt.Sprintf("%s %s, %s, within the %s A/A floor", formatRatio(r.Ratio.Ratio), formatInterval(r.Ratio.Lo, r.Ratio.Hi), formatP(r.Ratio.P), formatPct(r.Floor.Detectable))
	}
	return fmt.Sprintf("%s %s, %s", formatRatio(r.Ratio.Ratio), formatInterval(r.Ratio.Lo, r.Ratio.Hi), formatP(r.Ratio.P))
}

// labelWords writes a label for prose: a closed axis's value alone (json),
// an open one's key=value (batch=1024), joined by '/'.
func labelWords(label []cell.Part) string {
	s := make([]string, len(label))
	for i, p := range label {
		s[i] = partString(p)
		if cell.Values(p.Key) != nil {
			s[i] = p.Value
		}
	}
	return strings.Join(s, "/")
}

// list joins items as prose: "a", "a and b", "a, b and c".
func list(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

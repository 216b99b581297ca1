package headline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
)

// DefaultUnit is the unit of a headline that names none.
const DefaultUnit = results.UnitRecPerSec

// Comparison is one headline, parsed: the cells of A over the cells of B,
// optionally filtered (On) and split into rows (By), in one unit.
type Comparison struct {
	// Text is the headline as written, its runs of white space made one
	// space and its upstream clause left out; renderers and errors quote
	// it.
	Text string
	// A is the numerator and B the denominator: a key=value part, or a
	// bare value (Key "") that Check and Compute resolve to an axis.
	A, B cell.Part
	// On keeps only the cells that have every one of these parts (each
	// key=value or bare, as A and B).
	On []cell.Part
	// By are the axis keys whose value combinations make one row each.
	By []string
	// Unit is the unit compared: DefaultUnit unless the headline says
	// "in UNIT".
	Unit string
	// Upstream is a figure from outside the run for the same comparison
	// (e.g. "2.1-3.2×" from the upstream project's own benchmark), from
	// the headline's "upstream FIGURE" clause; Sentences quotes it.
	Upstream string
}

// Keywords that open a clause.
const (
	kwOn = "on"
	kwBy = "by"
	kwIn = "in"
	// kwUpstream names a figure from outside the run to set the ratio
	// beside ("upstream 2.1-3.2×"): a spec's statement of what it expects.
	kwUpstream = "upstream"
)

// Parse reads one headline, A/B [on V[, V...]] [by AXIS[, AXIS...]] [in
// UNIT] (see the package documentation). It needs no run: it checks the
// syntax, that keys are the lab's (cell.Keys, aa aside), that a key=value
// value is one its key takes (cell.Cell.Set), and that the clauses do not
// name the compared axis. Bare values are left for Check and Compute.
func Parse(s string) (Comparison, error) {
	words := strings.Fields(s)
	c := Comparison{Text: strings.Join(withoutUpstream(words), " "), Unit: DefaultUnit}
	fail := func(format string, args ...any) (Comparison, error) {
		return Comparison{}, fmt.Errorf("headline %q: %s", c.Text, fmt.Sprintf(format, args...))
	}
	if len(words) == 0 {
		return fail("empty; want A/B [on V, ...] [by AXIS, ...] [in UNIT]")
	}
	a, b, ok := strings.Cut(words[0], "/")
	switch {
	case isKeyword(words[0]):
		return fail("starts with %q; want A/B first", words[0])
	case !ok:
		return fail("%q is not A/B", words[0])
	case strings.Contains(b, "/"):
		return fail("%q has more than one '/'; a headline compares one A with one B", words[0])
	}
	var err error
	if c.A, err = parsePart(a); err != nil {
		return fail("numerator %v", err)
	}
	if c.B, err = parsePart(b); err != nil {
		return fail("denominator %v", err)
	}
	if c.A == c.B {
		return fail("A and B are both %s", partString(c.A))
	}

	clauses, err := splitClauses(words[1:])
	if err != nil {
		return fail("%v", err)
	}
	for _, s := range clauses[kwOn] {
		p, err := parsePart(s)
		if err != nil {
			return fail("on %v", err)
		}
		c.On = append(c.On, p)
	}
	for _, k := range clauses[kwBy] {
		if err := checkKey(k); err != nil {
			return fail("by %v", err)
		}
		c.By = append(c.By, k)
	}
	if u := clauses[kwIn]; u != nil {
		if len(u) != 1 || strings.Contains(u[0], " ") {
			return fail("in %q: want one unit", strings.Join(u, ", "))
		}
		c.Unit = u[0]
		if slices.Contains(derivedUnits, c.Unit) {
			return fail("in %s: a derived share is computed per table, not per repetition; compare %s instead (fast/decoder=none is pct-of-twin as a ratio)", c.Unit, DefaultUnit)
		}
	}
	if u := clauses[kwUpstream]; u != nil {
		if len(u) != 1 || strings.Contains(u[0], " ") {
			return fail("upstream %q: want one figure, e.g. upstream 2.1-3.2×", strings.Join(u, ", "))
		}
		c.Upstream = u[0]
	}
	if err := checkClauses(c.A, c.B, c.On, c.By); err != nil {
		return fail("%v", err)
	}
	return c, nil
}

// withoutUpstream is words without the upstream clause (its keyword and
// the words up to the next keyword): the comparison's text as tables and
// figures label it, the figure being said in the sentences.
func withoutUpstream(words []string) []string {
	out := make([]string, 0, len(words))
	in := false
	for i, w := range words {
		switch {
		case i > 0 && w == kwUpstream:
			in = true
			continue
		case isKeyword(w):
			in = false
		}
		if !in {
			out = append(out, w)
		}
	}
	return out
}

// derivedUnits are results' shares of a reference: they exist per table
// row, not per repetition, so no U test can be run on them.
var derivedUnits = []string{results.UnitPctCeiling, results.UnitPctTwin, results.UnitPctTwinExVerify}

func isKeyword(w string) bool { return w == kwOn || w == kwBy || w == kwIn || w == kwUpstream }

// splitClauses splits the words after A/B into the comma-separated items
// of each clause, each clause at most once and none empty.
func splitClauses(words []string) (map[string][]string, error) {
	text := map[string][]string{}
	cur := ""
	for _, w := range words {
		if isKeyword(w) {
			if _, dup := text[w]; dup {
				return nil, fmt.Errorf("%q clause given twice", w)
			}
			cur = w
			text[w] = []string{}
			continue
		}
		if cur == "" {
			return nil, fmt.Errorf("%q after A/B; want on, by, in or upstream", w)
		}
		text[cur] = append(text[cur], w)
	}
	out := make(map[string][]string, len(text))
	for kw, ws := range text {
		if len(ws) == 0 {
			return nil, fmt.Errorf("%q names nothing", kw)
		}
		for _, item := range strings.Split(strings.Join(ws, " "), ",") {
			item = strings.TrimSpace(item)
			switch {
			case item == "":
				return nil, fmt.Errorf("%s %q: an empty item (a stray comma?)", kw, strings.Join(ws, " "))
			case strings.Contains(item, " ") && kw != kwIn && kw != kwUpstream:
				return nil, fmt.Errorf("%s %q: separate items with commas", kw, item)
			}
			out[kw] = append(out[kw], item)
		}
	}
	return out, nil
}

// parsePart reads one side or filter: key=value, checked against the
// key's vocabulary, or a bare value.
func parsePart(s string) (cell.Part, error) {
	k, v, ok := strings.Cut(s, "=")
	switch {
	case s == "":
		return cell.Part{}, fmt.Errorf("is empty")
	case !ok:
		if strings.ContainsAny(s, ",") {
			return cell.Part{}, fmt.Errorf("%q: a side is one value", s)
		}
		return cell.Part{Value: s}, nil
	case k == "" || v == "" || strings.Contains(v, "="):
		return cell.Part{}, fmt.Errorf("%q is not key=value", s)
	}
	if err := checkKey(k); err != nil {
		return cell.Part{}, err
	}
	if v == cell.Off && cell.Default(k) == "" && !slices.Contains(cell.Axes(), k) {
		return cell.Part{Key: k, Value: v}, nil // an unset name-only part
	}
	if err := new(cell.Cell).Set(k, v); err != nil {
		return cell.Part{}, err
	}
	return cell.Part{Key: k, Value: v}, nil
}

// checkKey refuses a key no cell name holds, and aa: A/A cells calibrate
// the noise floor and are no point of the sweep.
func checkKey(k string) error {
	if k == cell.AA {
		return fmt.Errorf("%s: A/A cells calibrate the noise floor; they are no point to compare", k)
	}
	if _, ok := cell.KeyRank(k); !ok {
		keys := slices.DeleteFunc(cell.Keys(), func(s string) bool { return s == cell.AA })
		return fmt.Errorf("%q: no such axis (want %s)", k, strings.Join(keys, ", "))
	}
	return nil
}

// checkClauses refuses on and by clauses that name the compared axes, one
// axis twice, or one axis in both: what Parse can tell from keys alone,
// and what Check and Compute tell again once bare values are resolved.
func checkClauses(a, b cell.Part, on []cell.Part, by []string) error {
	compared := func(k string) bool { return k != "" && (k == a.Key || k == b.Key) }
	seen := map[string]string{}
	for _, p := range on {
		switch {
		case compared(p.Key):
			return fmt.Errorf("on %s: %s is the compared axis", partString(p), p.Key)
		case p.Key != "" && seen[p.Key] != "":
			return fmt.Errorf("on %s: %s is filtered twice", partString(p), p.Key)
		}
		if p.Key != "" {
			seen[p.Key] = kwOn
		}
	}
	for _, k := range by {
		switch {
		case compared(k):
			return fmt.Errorf("by %s: %s is the compared axis", k, k)
		case seen[k] == kwOn:
			return fmt.Errorf("by %s: %s is filtered (on) as well as split (by)", k, k)
		case seen[k] == kwBy:
			return fmt.Errorf("by %s: %s is listed twice", k, k)
		}
		seen[k] = kwBy
	}
	return nil
}

// partString writes p as a headline does: key=value, or the bare value.
func partString(p cell.Part) string {
	if p.Key == "" {
		return p.Value
	}
	return p.Key + "=" + p.Value
}

package headline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fastpathlab/fplab/cell"
)

// Check holds c against a spec's axes: axis key -> the values its cells
// take, as cell names write them (the ladder's Spec.Axis of every
// cell.Axes key, plus ckpt and the other name-only parts the spec sweeps,
// their unset value written off; a key left out has its one Default or
// off). It resolves bare values and refuses a value, or a by axis, the
// spec does not run, and a value several swept axes take, with one line:
//
//	headline "fast/flink by format": path=flink is not run by this spec
func Check(c Comparison, axes map[string][]string) error {
	_, err := resolve(c, axes, true)
	return err
}

// resolved is a Comparison whose parts all name their axis.
type resolved struct {
	Comparison
	a, b cell.Part
	on   []cell.Part
}

// twin reports whether B changes one axis of A's cells (fast/decoder=none)
// rather than naming another value of A's axis (fast/flink).
func (r resolved) twin() bool { return r.a.Key != r.b.Key }

// resolve gives every bare value of c its axis among axes and checks the
// result. strict (a spec) also refuses key=value parts and by axes the
// axes lack; otherwise (a run) a bare value the run lacks may still name
// the one closed axis whose vocabulary has it, and what the run lacks
// becomes a Missing row, not an error.
func resolve(c Comparison, axes map[string][]string, strict bool) (resolved, error) {
	fail := func(format string, args ...any) (resolved, error) {
		return resolved{}, fmt.Errorf("headline %q: %s", c.Text, fmt.Sprintf(format, args...))
	}
	where := "this run"
	if strict {
		where = "this spec"
	}
	r := resolved{Comparison: c}
	var err error
	part := func(p cell.Part) (cell.Part, error) { return resolvePart(p, axes, strict, where) }
	if r.a, err = part(c.A); err != nil {
		return fail("%v", err)
	}
	if r.b, err = part(c.B); err != nil {
		return fail("%v", err)
	}
	if r.a == r.b {
		return fail("A and B are both %s", partString(r.a))
	}
	for _, p := range c.On {
		q, err := part(p)
		if err != nil {
			return fail("on %v", err)
		}
		r.on = append(r.on, q)
	}
	if err := checkClauses(r.a, r.b, r.on, c.By); err != nil {
		return fail("%v", err)
	}
	if strict {
		for _, k := range c.By {
			if _, ok := axes[k]; !ok {
				return fail("by %s: %s has no %s axis", k, where, k)
			}
		}
	}
	return r, nil
}

// resolvePart gives a bare value its axis: the one key of axes whose
// values include it, the swept keys (several values) first. A bare value
// no key of axes has may name the one closed axis whose vocabulary has
// it, if axes let that axis take it (a default left out of the map);
// strict names the spec's missing value.
func resolvePart(p cell.Part, axes map[string][]string, strict bool, where string) (cell.Part, error) {
	if p.Key != "" {
		if strict && !slices.Contains(axisValues(axes, p.Key), p.Value) {
			return p, fmt.Errorf("%s is not run by %s", partString(p), where)
		}
		return p, nil
	}
	var keys, swept []string
	for k, vs := range axes {
		if slices.Contains(vs, p.Value) {
			keys = append(keys, k)
			if len(vs) > 1 {
				swept = append(swept, k)
			}
		}
	}
	if len(swept) > 0 {
		keys = swept
	}
	slices.SortFunc(keys, keyOrder)
	switch len(keys) {
	case 1:
		return cell.Part{Key: keys[0], Value: p.Value}, nil
	case 0:
	default:
		return p, fmt.Errorf("%q is a value of %s in %s; write it key=value", p.Value, strings.Join(keys, " and "), where)
	}
	var vocab []string
	for _, k := range cell.Keys() {
		if slices.Contains(cell.Values(k), p.Value) {
			vocab = append(vocab, k)
		}
	}
	switch {
	case len(vocab) == 1 && (!strict || slices.Contains(axisValues(axes, vocab[0]), p.Value)):
		return cell.Part{Key: vocab[0], Value: p.Value}, nil
	case len(vocab) == 1:
		return p, fmt.Errorf("%s=%s is not run by %s", vocab[0], p.Value, where)
	case len(vocab) > 1:
		return p, fmt.Errorf("%q is a value of %s, none of them in %s; write it key=value", p.Value, strings.Join(vocab, " and "), where)
	}
	return p, fmt.Errorf("%q is no value of any axis of %s", p.Value, where)
}

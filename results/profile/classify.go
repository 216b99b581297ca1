package profile

import "github.com/google/pprof/profile"

// Classifier charges stacks to buckets with the two rule tables.
type Classifier struct {
	gc    []Rule
	owner []Rule
}

// NewClassifier returns a Classifier with GCRules and OwnerRules.
func NewClassifier() *Classifier {
	return &Classifier{gc: GCRules(), owner: OwnerRules()}
}

// Classify returns the bucket of a stack (frames leaf first) and the index
// in stack of the frame that decided it (-1 for an empty stack):
//
//  1. any frame matching a GCRules rule: BucketGC, decided by the matching
//     frame nearest the leaf;
//  2. else, walking from the leaf, the first frame whose first matching
//     OwnerRules rule is not a Pass rule: that rule's bucket;
//  3. else BucketRuntime if the leaf IsRuntime, BucketOther otherwise,
//     decided by the leaf.
func (c *Classifier) Classify(stack []Frame) (Bucket, int) {
	if len(stack) == 0 {
		return BucketOther, -1
	}
	for i, f := range stack {
		for _, r := range c.gc {
			if r.Match(f) {
				return r.Bucket, i
			}
		}
	}
	for i, f := range stack {
		for _, r := range c.owner {
			if !r.Match(f) {
				continue
			}
			if !r.Pass {
				return r.Bucket, i
			}
			break
		}
	}
	if IsRuntime(stack[0]) {
		return BucketRuntime, 0
	}
	return BucketOther, 0
}

// Stack returns a sample's frames leaf first: locations from the leaf and,
// within a location, inlined frames innermost first (pprof's Line order).
// A location without lines is one unsymbolized frame (Func "").
func Stack(s *profile.Sample) []Frame {
	out := make([]Frame, 0, len(s.Location))
	for _, loc := range s.Location {
		if loc == nil {
			continue
		}
		if len(loc.Line) == 0 {
			out = append(out, Frame{})
			continue
		}
		for _, ln := range loc.Line {
			if ln.Function == nil {
				out = append(out, Frame{})
				continue
			}
			out = append(out, Frame{Func: ln.Function.Name, File: ln.Function.Filename})
		}
	}
	return out
}

// label is how tables name a deciding frame.
func label(f Frame) string {
	if f.Func == "" {
		return "(unsymbolized)"
	}
	return f.Func
}

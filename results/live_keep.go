package results

// keepLive is the part of l the figures draw: the cells of x (the swept
// cells, so no A/A calibration cell) and, of each, the repetitions x
// counts as successful. A repetition's files stay in live/ when its child
// fails after writing them or when the repetition is run again and fails,
// so the files alone would merge a repetition the tables do not count. A
// cell that loses a repetition is merged again from the rest. The result
// is never nil and holds no histogram.
func keepLive(l *Live, x *Index) *Live {
	out := &Live{}
	if l == nil {
		return out
	}
	for _, c := range l.Cells {
		cs := x.Cell(c.Name)
		if cs == nil {
			continue
		}
		ok := make(map[int]bool, len(cs.Rows))
		for _, r := range cs.Rows {
			ok[r.Rep] = r.OK
		}
		kept := c
		kept.Reps = nil
		for _, r := range c.Reps {
			if ok[r.Rep] {
				kept.Reps = append(kept.Reps, r)
			}
		}
		if len(kept.Reps) == 0 {
			continue
		}
		if len(kept.Reps) < len(c.Reps) {
			if err := kept.merge(); err != nil {
				// Only a hand-built Live lacks the histograms to merge
				// again: its cell is left out rather than drawn wrong.
				continue
			}
		}
		// The analysis holds plain data: the histograms (some 190 KB
		// each) go with the Live that was read.
		for i := range kept.Reps {
			kept.Reps[i].hist = nil
		}
		out.Cells = append(out.Cells, kept)
	}
	return out
}

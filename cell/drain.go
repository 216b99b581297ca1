package cell

// FastDrain is the crossing a path=fast cell reads with: the drain it
// names, or, when it names none, the fast path's default for its read.
// The default crosses ahead (DrainAhead) where a crossing's records are
// decoded on a bounded read, so the next crossing overlaps the decode:
// a format other than raw, a decoder other than none, not live. Anywhere
// else it is the callback drain: raw keeps its direct copy into the batch,
// a twin has nothing to overlap, and a live batch's linger cannot wait out
// a crossing ahead (docs/paths.md, "Crossing ahead"). Other paths poll:
// "".
func (c Cell) FastDrain() string {
	switch {
	case c.Path != PathFast:
		return ""
	case c.Drain != "":
		return c.Drain
	case c.Format != FormatRaw && c.Decoder != DecoderNone && !c.Live():
		return DrainAhead
	default:
		return DrainCallback
	}
}

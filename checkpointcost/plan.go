package checkpointcost

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
)

// Plan tells one reader process where its planned failure is. The
// supervisor writes it as one JSON line on the reader's standard input
// before anything else happens; a reader with no failure to take gets the
// zero Plan.
//
// A planned failure makes fault injection independent of host speed: the
// reader itself stops at the first batch boundary where it has read HaltAt
// records since RangeStart and is back at After (the previous killed
// reader's position) on every partition. If it has completed no
// checkpoint of its own by then, it takes one there and waits for it; that
// wait is outside the measured window and reported as its own figure
// (Failure.Wait). Then it reports a halt event and reads nothing more; the
// supervisor kills it with SIGKILL on that event. Whatever the machine's
// speed or load, every planned kill lands, at a position fixed by the seed
// and the batch boundaries alone.
type Plan struct {
	// Halt is false when this reader runs to the end of the range.
	Halt bool `json:"halt,omitempty"`
	// HaltAt counts records read since RangeStart (all partitions).
	HaltAt int64 `json:"halt_at,omitempty"`
	// RangeStart is the start of the supervised range, per partition.
	RangeStart []int64 `json:"range_start,omitempty"`
	// After is the position the reader must be back at before it halts
	// (nil: no earlier failure).
	After []int64 `json:"after,omitempty"`
}

// validate checks a plan against the reader's partition count.
func (p *Plan) validate(partitions int) error {
	if !p.Halt {
		return nil
	}
	switch {
	case p.HaltAt <= 0:
		return fmt.Errorf("plan halts at %d records, want > 0", p.HaltAt)
	case len(p.RangeStart) != partitions:
		return fmt.Errorf("plan's range has %d partitions, the reader %d", len(p.RangeStart), partitions)
	case p.After != nil && len(p.After) != partitions:
		return fmt.Errorf("plan's position to get back to has %d partitions, the reader %d", len(p.After), partitions)
	}
	return nil
}

// reached reports whether a reader at split has met the plan's halt
// condition.
func (p *Plan) reached(split []int64) bool {
	if !p.Halt {
		return false
	}
	var pos int64
	for i, v := range split {
		pos += v - p.RangeStart[i]
	}
	return pos >= p.HaltAt && (p.After == nil || atOrPast(split, p.After))
}

// ReadPlan reads the plan line a supervisor wrote on a reader's standard
// input. A reader process calls it once, before RunReader, and passes the
// result in ReaderOptions.Plan.
func ReadPlan(r io.Reader) (Plan, error) {
	line, err := bufio.NewReader(r).ReadBytes('\n')
	if err != nil {
		return Plan{}, fmt.Errorf("read the failure plan from the supervisor: %w", err)
	}
	var p Plan
	if err := json.Unmarshal(line, &p); err != nil {
		return Plan{}, fmt.Errorf("failure plan: %w", err)
	}
	return p, nil
}

// writePlan writes p as one line.
func writePlan(w io.Writer, p Plan) error {
	data, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("encode plan: %w", err)
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

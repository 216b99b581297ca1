package checkpointcost

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// Event is one line of the progress stream a reader writes (one JSON
// object per line, docs/checkpoint.md has the protocol). Times
// are Unix nanoseconds of the wall clock (reader and supervisor share the
// host); durations are nanoseconds measured on the reader's monotonic clock.
type Event struct {
	Ev string `json:"ev"`
	T  int64  `json:"t"`
	// start
	PID      int `json:"pid,omitempty"`
	Restored int `json:"restored,omitempty"`
	// start: how many subtasks the reader process runs (ReaderOptions)
	Subtasks int `json:"subtasks,omitempty"`
	// start, batch, ckpt, ckpt-failed: the split state (per partition, the
	// offset after the last record read).
	Split []int64 `json:"split,omitempty"`
	// batch: rows in the batches it covers; done: rows this reader read in all; commit:
	// records made visible.
	Rec int64 `json:"rec,omitempty"`
	// ckpt, ckpt-failed, commit
	ID         int   `json:"id,omitempty"`
	Trigger    int64 `json:"trigger,omitempty"`
	AlignNS    int64 `json:"align_ns,omitempty"`
	SnapshotNS int64 `json:"snapshot_ns,omitempty"`
	DurNS      int64 `json:"dur_ns,omitempty"`
	PauseNS    int64 `json:"pause_ns,omitempty"`
	Bytes      int64 `json:"bytes,omitempty"`
	Final      bool  `json:"final,omitempty"`
	// Forced marks a checkpoint a reader took at its planned failure
	// because it had completed none of its own (see Plan); like a final
	// one it is left out of the percentile figures.
	Forced bool `json:"forced,omitempty"`
	// halt: how long the reader waited at its failure point for its own
	// checkpoint (0 when it had one).
	WaitNS int64 `json:"wait_ns,omitempty"`
	// commit, offsets (how long the commit took)
	Txns     int   `json:"txns,omitempty"`
	CommitNS int64 `json:"commit_ns,omitempty"`
	// offsets: completed checkpoints whose offset commit this one
	// superseded before it was sent
	Skipped int `json:"skipped,omitempty"`
	// ckpt-failed, error
	Err string `json:"err,omitempty"`
	// done: the reader process's memory (ReaderOptions.Memory), bytes
	PeakBytes    int64 `json:"peak_bytes,omitempty"`
	HarnessBytes int64 `json:"harness_bytes,omitempty"`
	PathBytes    int64 `json:"path_bytes,omitempty"`
	ArrowBytes   int64 `json:"arrow_bytes,omitempty"`
}

// The event kinds.
const (
	EvStart      = "start"
	EvFirst      = "first"
	EvBatch      = "batch"
	EvCkpt       = "ckpt"
	EvCkptFailed = "ckpt-failed"
	EvCommit     = "commit"
	// EvOffsets is a completed checkpoint's positions committed for the
	// reader's group (ReaderOptions.Commit), or the commit's error.
	EvOffsets = "offsets"
	EvHalt    = "halt"
	EvDone    = "done"
	EvError   = "error"
)

// eventWriter writes events, each with a single Write so that a reader
// killed mid-stream leaves only whole lines behind.
type eventWriter struct {
	w   io.Writer
	buf []byte
}

func (e *eventWriter) emit(ev *Event) error {
	data, err := json.Marshal(ev)
	if err != nil {
		return fmt.Errorf("encode event: %w", err)
	}
	return e.write(append(data, '\n'))
}

// batch writes the per-batch event without reflection: it is on the read
// path once per batch.
func (e *eventWriter) batch(t int64, rec int64, split []int64) error {
	b := append(e.buf[:0], `{"ev":"batch","t":`...)
	b = strconv.AppendInt(b, t, 10)
	b = append(b, `,"rec":`...)
	b = strconv.AppendInt(b, rec, 10)
	b = append(b, `,"split":[`...)
	for i, v := range split {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, v, 10)
	}
	b = append(b, "]}\n"...)
	e.buf = b
	return e.write(b)
}

func (e *eventWriter) write(b []byte) error {
	if _, err := e.w.Write(b); err != nil {
		return fmt.Errorf("write event: %w", err)
	}
	return nil
}

package source

import (
	"fmt"
	"slices"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/source/internal/drain"
)

// Pausing a partition (consume.Pauser) is bookkeeping in the assembler and
// a call to the client:
//
//   - Pause marks the partitions held and asks the client to stop fetching
//     them. From then on the assembler takes nothing of a held partition:
//     a record is not consumed (no row, the position stays), and neither a
//     control record nor an EOF event moves its position. Records the
//     client had fetched already (in the drain's buffer, franz's fetches,
//     the client's queue) are passed over, so none reaches a batch.
//   - Resume asks the client to fetch the partitions again from their
//     positions (a seek: what was passed over while held is fetched
//     anew), and keeps them held while the reader's own buffer still holds
//     records fetched before the resume: those are stale (stale), and only
//     a fetch made after the resume clears them (fetched).
//
// Rows a Next took into the batch being built before the Pause are handed
// over with that batch: between two Next calls that returned a batch there
// are none (emit empties it), so only a Next that ended early (its context
// canceled) leaves some.

// pauseState is the assembler's part: per partition, whether it is paused
// and whether it is resumed but its stale records may still be buffered.
type pauseState struct {
	paused []bool
	stale  []bool
}

// held reports whether the assembler takes nothing of partition p.
func (a *assembler) held(p int32) bool {
	return a.ps.paused != nil && (a.ps.paused[p] || a.ps.stale[p])
}

// checkPartitions refuses a partition the read does not have, or a list
// that names one twice.
func (a *assembler) checkPartitions(op string, ps []int32) error {
	for i, p := range ps {
		if p < 0 || int(p) >= len(a.pos) {
			return fmt.Errorf("%s partition %d: the topic has partitions 0..%d", op, p, len(a.pos)-1)
		}
		if slices.Contains(ps[:i], p) {
			return fmt.Errorf("%s partition %d: listed twice", op, p)
		}
	}
	return nil
}

// pause marks ps held.
func (a *assembler) pause(ps []int32) {
	if a.ps.paused == nil {
		a.ps.paused = make([]bool, len(a.pos))
		a.ps.stale = make([]bool, len(a.pos))
	}
	for _, p := range ps {
		a.ps.paused[p] = true
	}
}

// pausedOf are the partitions of ps that are paused.
func (a *assembler) pausedOf(ps []int32) []int32 {
	var out []int32
	for _, p := range ps {
		if a.ps.paused != nil && a.ps.paused[p] {
			out = append(out, p)
		}
	}
	return out
}

// resume ends the pause of ps; they stay held until the next fetch.
func (a *assembler) resume(ps []int32) {
	if a.ps.paused == nil {
		return
	}
	for _, p := range ps {
		if a.ps.paused[p] {
			a.ps.paused[p], a.ps.stale[p] = false, true
		}
	}
}

// fetched is called before each fetch made after the reader's buffer of
// records was used up: whatever it brings of a resumed partition comes
// from its position, so the partition is no longer held.
func (a *assembler) fetched() {
	if a.ps.paused != nil {
		clear(a.ps.stale)
	}
}

// waitingOnPause reports whether every unfinished partition is paused: a
// read that gets nothing then waits on purpose, and is not stalled.
func (a *assembler) waitingOnPause() bool {
	if a.ps.paused == nil {
		return false
	}
	for p := range a.pos {
		if a.pos[p] < a.stop[p] && !a.ps.paused[p] {
			return false
		}
	}
	return true
}

// The paths' Pause and Resume: the assembler's bookkeeping first, then the
// client's.

// A fast read that crosses ahead first waits for the crossing under way
// (ahead.go): the client is paused, resumed and sought with no crossing
// running, as without it.
func (r *fastReader) Pause(ps ...int32) error {
	r.joinAhead()
	return r.rdk.pause(r.a, ps)
}

func (r *fastReader) Resume(ps ...int32) error {
	r.joinAhead()
	return r.rdk.resume(r.a, ps)
}

func (r *fastReader) joinAhead() {
	if r.ahead != nil {
		r.ahead.join()
	}
}

func (r *pollReader) Pause(ps ...int32) error  { return r.rdk.pause(r.a, ps) }
func (r *pollReader) Resume(ps ...int32) error { return r.rdk.resume(r.a, ps) }

// pause holds ps and stops librdkafka fetching them
// (rd_kafka_pause_partitions).
func (r *rdkConsumer) pause(a *assembler, ps []int32) error {
	if err := a.checkPartitions("pause", ps); err != nil {
		return err
	}
	a.pause(ps)
	tps := r.assigned(a, ps)
	if len(tps) == 0 {
		return nil
	}
	if err := r.c.Pause(tps); err != nil {
		return fmt.Errorf("pause: librdkafka: %w", err)
	}
	return nil
}

// resume lets librdkafka fetch ps again (rd_kafka_resume_partitions) from
// each one's position: librdkafka would go on from the last message it
// handed to the lab, past what was passed over while held, so the resume
// is followed by a seek there (rd_kafka_seek_partitions through
// drain.Seek, waiting at most the reader's timeout; messages fetched
// before it are dropped by librdkafka's version barrier, and the reader's
// own leftovers stay held until its next crossing).
func (r *rdkConsumer) resume(a *assembler, ps []int32) error {
	if err := a.checkPartitions("resume", ps); err != nil {
		return err
	}
	ps = a.pausedOf(ps)
	a.resume(ps)
	tps := r.assigned(a, ps)
	if len(tps) == 0 {
		return nil
	}
	if err := r.c.Resume(tps); err != nil {
		return fmt.Errorf("resume: librdkafka: %w", err)
	}
	parts, offs := make([]int32, len(tps)), make([]int64, len(tps))
	for i, tp := range tps {
		parts[i], offs[i] = tp.Partition, a.pos[tp.Partition]
	}
	// bounded by the reader's timeout: confluent-kafka-go's
	// SeekPartitions would wait for ever
	if err := drain.Seek(r.c, r.topic, parts, offs, r.timeout); err != nil {
		return fmt.Errorf("resume: librdkafka %w", err)
	}
	return nil
}

// assigned are the partitions of ps the client reads: not finished (a
// finished partition, or an empty range, is not fetched).
func (r *rdkConsumer) assigned(a *assembler, ps []int32) []kafka.TopicPartition {
	var tps []kafka.TopicPartition
	for _, p := range ps {
		if a.pos[p] < a.stop[p] {
			tps = append(tps, kafka.TopicPartition{Topic: &r.topic, Partition: p})
		}
	}
	return tps
}

func (r *franzReader) Pause(ps ...int32) error {
	a := r.a
	if err := a.checkPartitions("pause", ps); err != nil {
		return err
	}
	a.pause(ps)
	r.cl.PauseFetchPartitions(map[string][]int32{r.cfg.Topic: ps})
	return nil
}

// Resume lets franz-go fetch ps again from each one's position: its
// cursor went on past what the client handed over while ps were held, so
// the offsets are set back (SetOffsets drops what it buffered of them).
func (r *franzReader) Resume(ps ...int32) error {
	a := r.a
	if err := a.checkPartitions("resume", ps); err != nil {
		return err
	}
	ps = a.pausedOf(ps)
	a.resume(ps)
	offs := map[int32]kgo.EpochOffset{}
	for _, p := range ps {
		if a.pos[p] < a.stop[p] {
			offs[p] = kgo.EpochOffset{Epoch: -1, Offset: a.pos[p]}
		}
	}
	r.cl.ResumeFetchPartitions(map[string][]int32{r.cfg.Topic: ps})
	if len(offs) > 0 {
		r.cl.SetOffsets(map[string]map[int32]kgo.EpochOffset{r.cfg.Topic: offs})
	}
	return nil
}

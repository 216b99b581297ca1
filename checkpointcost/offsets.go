package checkpointcost

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/fastpathlab/fplab/source/consume"
)

// Offsets committed on completed checkpoints, as Flink's KafkaSourceReader
// does with commit.offsets.on.checkpoint (ReaderOptions.Commit). Once a
// checkpoint has completed (its snapshot durable, its transactions
// committed), its split state is handed to an offsetCommitter, which
// commits it for the reader's group on a goroutine of its own: reading
// and checkpointing never wait for the group coordinator. Commits run one
// at a time, in checkpoint order; a checkpoint that completes while a
// commit runs replaces any still waiting (it is newer: the waiting one is
// skipped, never sent), so an older checkpoint's offsets never reach the
// broker after a newer one's. A failed commit is counted and reported
// (an offsets event with its error) and changes nothing else: recovery
// reads checkpoint state only, never the group's offsets. At the end the
// final checkpoint's commit is waited for (within CommitTimeout).

// DefaultCommitTimeout bounds one offset commit when
// ReaderOptions.CommitTimeout is zero.
const DefaultCommitTimeout = 10 * time.Second

// offsetsJob is one completed checkpoint's positions to commit.
type offsetsJob struct {
	id    int
	split []int64
}

// offsetsOutcome is what one commit did; skipped counts the checkpoints
// whose commit it superseded while they waited.
type offsetsOutcome struct {
	id      int
	split   []int64
	t       time.Time
	dur     time.Duration
	err     error
	skipped int
}

type offsetCommitter struct {
	c       consume.Committer
	timeout time.Duration

	mu      sync.Mutex
	pending *offsetsJob
	skipped int
	out     []offsetsOutcome

	kick chan struct{}
	stop chan struct{}
	done chan struct{}
}

func newOffsetCommitter(c consume.Committer, timeout time.Duration) *offsetCommitter {
	if timeout <= 0 {
		timeout = DefaultCommitTimeout
	}
	oc := &offsetCommitter{c: c, timeout: timeout, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go oc.run()
	return oc
}

// post hands over checkpoint id's positions, replacing any still waiting.
func (oc *offsetCommitter) post(id int, split []int64) {
	oc.mu.Lock()
	if oc.pending != nil {
		oc.skipped++
	}
	oc.pending = &offsetsJob{id: id, split: slices.Clone(split)}
	oc.mu.Unlock()
	select {
	case oc.kick <- struct{}{}:
	default:
	}
}

func (oc *offsetCommitter) run() {
	defer close(oc.done)
	for {
		select {
		case <-oc.kick:
			oc.commitPending()
		case <-oc.stop:
			oc.commitPending()
			return
		}
	}
}

// commitPending commits the waiting job, if any.
func (oc *offsetCommitter) commitPending() {
	oc.mu.Lock()
	job, skipped := oc.pending, oc.skipped
	oc.pending, oc.skipped = nil, 0
	oc.mu.Unlock()
	if job == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), oc.timeout)
	t0 := time.Now()
	err := oc.c.CommitOffsets(ctx, job.split)
	t1 := time.Now()
	cancel()
	oc.mu.Lock()
	oc.out = append(oc.out, offsetsOutcome{id: job.id, split: job.split, t: t1, dur: t1.Sub(t0), err: err, skipped: skipped})
	oc.mu.Unlock()
}

// outcomes takes the commits finished since the last call.
func (oc *offsetCommitter) outcomes() []offsetsOutcome {
	oc.mu.Lock()
	defer oc.mu.Unlock()
	out := oc.out
	oc.out = nil
	return out
}

// finish commits what waits and stops; it returns once the goroutine has
// (at most one commit and one CommitTimeout later).
func (oc *offsetCommitter) finish() {
	select {
	case <-oc.stop:
	default:
		close(oc.stop)
	}
	<-oc.done
}

// emitOffsets writes an offsets event per finished commit.
func (rd *reader) emitOffsets() error {
	if rd.offsets == nil {
		return nil
	}
	for _, o := range rd.offsets.outcomes() {
		ev := Event{Ev: EvOffsets, T: o.t.UnixNano(), ID: o.id, Split: o.split, CommitNS: int64(o.dur), Skipped: o.skipped}
		if o.err != nil {
			ev.Err = o.err.Error()
		}
		if err := rd.ev.emit(&ev); err != nil {
			return err
		}
	}
	return nil
}

package source

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf16"

	"github.com/fastpathlab/fplab/source/consume"
)

// maxSubtasks bounds OpenSubtasks: a reader per partition at most, and no
// more than a task manager's slots would sensibly hold on one host.
const maxSubtasks = 64

// SplitOwner is the subtask, of n, that reads partition p of topic, as
// Apache Flink's KafkaSource enumerator assigns a partition split: the
// topic's Java String.hashCode times 31 (32-bit arithmetic), its sign bit
// cleared, modulo n gives partition 0's subtask, and the partitions
// follow round robin from there. A checkpoint restored with another n
// reassigns the splits by the same rule.
func SplitOwner(topic string, p, n int) int {
	h := javaStringHash(topic) * 31
	start := int(h&0x7FFFFFFF) % n
	return (start + p) % n
}

// javaStringHash is java.lang.String.hashCode: s[0]*31^(k-1) + ... +
// s[k-1] over the UTF-16 code units, in wrapping 32-bit arithmetic.
func javaStringHash(s string) int32 {
	var h int32
	for _, u := range utf16.Encode([]rune(s)) {
		h = 31*h + int32(u)
	}
	return h
}

// OpenSubtasks opens n readers of cfg's bounded range at once, as a Flink
// job of parallelism n reads a topic: subtask i reads the partitions
// SplitOwner gives it, with its own client (client id <prefix>-<i>), and
// the subtasks read concurrently. It returns them as one consume.Reader
// whose Batch.Split holds every partition's position as of the batches
// it handed over, so a checkpoint of it is the union of the subtasks'
// split states, restorable with any n. cfg must give Start and Stop for
// every partition (a bounded range: not Live, no StartAt) and no Stats;
// n is 1..Partitions. The reader is neither a Pauser nor a Committer;
// its Subtasks method (SubtasksOf) says how many readers it reads from.
func OpenSubtasks(ctx context.Context, cfg Config, n int) (consume.Reader, error) {
	switch {
	case n < 1 || n > cfg.Partitions || n > maxSubtasks:
		return nil, fmt.Errorf("source: %d subtasks for %d partitions, want 1..%d", n, cfg.Partitions, min(cfg.Partitions, maxSubtasks))
	case cfg.Live || cfg.StartAt != StartEarliest:
		return nil, errors.New("source: subtasks read a bounded range from given offsets (no live read, no start mode)")
	case len(cfg.Start) != cfg.Partitions || len(cfg.Stop) != cfg.Partitions:
		return nil, fmt.Errorf("source: subtasks need start and stop offsets for each of %d partitions", cfg.Partitions)
	case cfg.Subtask != 0:
		return nil, errors.New("source: OpenSubtasks numbers the subtasks itself (Config.Subtask must be 0)")
	case cfg.Stats != 0:
		// OnStats is called one document at a time; n clients would not
		return nil, errors.New("source: subtasks sample no librdkafka statistics (Config.Stats must be 0)")
	}
	owner := make([]int, cfg.Partitions)
	for p := range owner {
		owner[p] = SplitOwner(cfg.Topic, p, n)
	}
	subs := make([]consume.Reader, 0, n)
	closeAll := func() {
		for _, r := range subs {
			_ = r.Close()
		}
	}
	for i := range n {
		sc := cfg
		sc.Subtask = i
		sc.Start, sc.Stop = make([]int64, cfg.Partitions), make([]int64, cfg.Partitions)
		for p := range owner {
			if owner[p] == i {
				sc.Start[p], sc.Stop[p] = cfg.Start[p], cfg.Stop[p]
			} else {
				// Another subtask's: an empty range, never assigned.
				sc.Start[p], sc.Stop[p] = cfg.Stop[p], cfg.Stop[p]
			}
		}
		r, err := Open(ctx, sc)
		if err != nil {
			closeAll()
			return nil, fmt.Errorf("source: subtask %d of %d: %w", i, n, err)
		}
		subs = append(subs, r)
	}
	m, err := merge(subs, owner, cfg.Start)
	if err != nil {
		closeAll()
		return nil, err
	}
	return m, nil
}

// SubtasksOf is how many subtasks r reads with: OpenSubtasks' n, or 0 for
// any other reader (one reader, not split).
func SubtasksOf(r consume.Reader) int {
	if s, ok := r.(interface{ Subtasks() int }); ok {
		return s.Subtasks()
	}
	return 0
}

package consume

import "context"

// Committer is a Reader that commits offsets for its consumer group, as
// Flink's KafkaSourceReader commits a completed checkpoint's positions
// when commit.offsets.on.checkpoint is on. Every path's Reader is one; a
// reader opened without a group refuses to commit. CommitOffsets may run
// on another goroutine than Next, one call at a time.
type Committer interface {
	// CommitOffsets commits split (per partition, the offset of the next
	// record to read: a Batch.Split) as the group's committed offsets,
	// and returns once the broker answered or ctx ended. A call that
	// returned because ctx ended may still land later, but before any
	// commit made after it.
	CommitOffsets(ctx context.Context, split []int64) error
}

package consume

// Pauser is a Reader whose partitions can be paused and resumed one by
// one, as FLIP-27's SourceReader.pauseOrResumeSplits pauses splits for
// watermark alignment. Every path's Reader is one. Pause and Resume are
// called between Next calls, by the goroutine that calls Next.
type Pauser interface {
	// Pause stops the partitions: once it returns, no batch holds a row
	// of a paused partition that was not already in the batch being built
	// (none is after a Next that returned a batch), until Resume. A
	// partition paused twice stays paused.
	Pause(partitions ...int32) error
	// Resume lets paused partitions go on from the first record not
	// handed over: nothing skipped, nothing handed over twice. Resuming
	// a partition that is not paused does nothing.
	Resume(partitions ...int32) error
}

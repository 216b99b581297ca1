package consume

import "fmt"

// ParseFailure locates a record whose payload the codec could not decode:
// a corrupt record is reported by where it is, not as a short count.
type ParseFailure struct {
	Partition int32
	Offset    int64
	Err       error // wraps workloads.ErrParse
}

func (f *ParseFailure) Error() string {
	return fmt.Sprintf("record at partition %d offset %d does not decode: %v", f.Partition, f.Offset, f.Err)
}

func (f *ParseFailure) Unwrap() error { return f.Err }

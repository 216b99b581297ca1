package alloc

import "github.com/apache/arrow-go/v18/arrow/memory"

// Checked wraps Allocator() in arrow's leak-checking allocator. Tests in
// any package use it and finish with AssertSize(t, 0).
func Checked() *memory.CheckedAllocator {
	return memory.NewCheckedAllocator(Allocator())
}

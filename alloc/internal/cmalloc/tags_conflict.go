//go:build mimalloc2 && mimalloc3

package cmalloc

// One binary carries one mimalloc series: the two copies define the same
// ~440 symbols. This identifier is deliberately undefined so the build
// stops with its name as the message.
var _ = alloc_build_tags_mimalloc2_and_mimalloc3_are_exclusive

package cell

import "strconv"

// Micro is the first key of a micro-benchmark row's name
// (micro=<bench>/...): the rows a spec's `micro:` list adds after its cells.
const Micro = "micro"

// The micro-benchmarks a spec can ask for.
const (
	// MicroCrossThread: malloc on one OS thread, free on another, in the
	// binary of an allocator (librdkafka's op per message).
	MicroCrossThread = "crossthread"
	// MicroCRC32C: CRC32C in Go's hash/crc32 against a software
	// slicing-by-8 (what librdkafka pays without hardware CRC32C).
	MicroCRC32C = "crc32c"
	// MicroDecode: the lab's columnar decoder against a stock Go route.
	MicroDecode = "decode"
)

// Micros lists the micro-benchmarks in the order a spec runs them.
func Micros() []string { return []string{MicroCrossThread, MicroCRC32C, MicroDecode} }

// CrossThreadName is the row name of a crossthread micro-benchmark of
// blocks of size bytes in the binary of allocator alloc.
func CrossThreadName(size int, alloc string) string {
	return join(Part{Micro, MicroCrossThread}, Part{Size, strconv.Itoa(size)}, Part{Alloc, alloc})
}

// CRC32CName is the row name of a crc32c micro-benchmark of implementation
// impl on messages of size bytes.
func CRC32CName(impl string, size int) string {
	return join(Part{Micro, MicroCRC32C}, Part{"impl", impl}, Part{Size, strconv.Itoa(size)})
}

// DecodeName is the row name of a decode micro-benchmark of format by
// route lib (the lab's decoder or a stock library) on records scaled to
// size bytes (the spec's size axis), its batches from allocator mem
// (DecodeMems); the natural ~100 B records (size 0 or 100) add no size
// part, as a cell at the default size adds none, and Go's allocator ("" or
// "go", what every decode row was measured with before the pool) adds no
// mem part.
func DecodeName(format, lib string, size int, mem string) string {
	parts := []Part{{Micro, MicroDecode}, {Format, format}, {"lib", lib}}
	if size != 0 && size != 100 {
		parts = append(parts, Part{Size, strconv.Itoa(size)})
	}
	if mem != "" && mem != DecodeMemGo {
		parts = append(parts, Part{"mem", mem})
	}
	return join(parts...)
}

// The allocators a decode micro-benchmark can build its batches from: Go's
// alone (every batch fresh, zeroed memory) or the consume paths' pool over
// it (workloads/recycle: a released batch's buffers go to the next).
const (
	DecodeMemGo   = "go"
	DecodeMemPool = "pool"
)

// DecodeMems lists the decode micro-benchmark's allocators.
func DecodeMems() []string { return []string{DecodeMemGo, DecodeMemPool} }

func join(parts ...Part) string {
	b := make([]byte, 0, 64)
	for i, p := range parts {
		if i > 0 {
			b = append(b, '/')
		}
		b = append(b, p.Key...)
		b = append(b, '=')
		b = append(b, p.Value...)
	}
	return string(b)
}

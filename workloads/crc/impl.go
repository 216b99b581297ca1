package crc

import (
	"fmt"
	"hash/crc32"
	"runtime"

	"golang.org/x/sys/cpu"
)

// Impl is one CRC32C implementation under test.
type Impl struct {
	// Name is the impl= value in benchmark names.
	Name string
	// Sum returns the CRC32C of p.
	Sum func(p []byte) uint32
}

// Implementation names.
const (
	GoCastagnoli = "go-castagnoli"
	SWSlicing8   = "sw-slicing8"
)

// Impls returns the implementations Measure compares, hardware-capable
// first.
func Impls() []Impl {
	tab := crc32.MakeTable(crc32.Castagnoli)
	sw := NewSlicing8()
	return []Impl{
		{Name: GoCastagnoli, Sum: func(p []byte) uint32 { return crc32.Checksum(p, tab) }},
		{Name: SWSlicing8, Sum: sw.Checksum},
	}
}

// ImplByName returns the implementation called name.
func ImplByName(name string) (Impl, error) {
	for _, im := range Impls() {
		if im.Name == name {
			return im, nil
		}
	}
	return Impl{}, fmt.Errorf("unknown implementation %q (have %s, %s)", name, GoCastagnoli, SWSlicing8)
}

// HardwareCRC names the CRC32C instructions hash/crc32 can use on this CPU
// ("sse4.2" on amd64, "arm64-crc32" on arm64) or returns "none". Go's
// Castagnoli path on amd64 also uses PCLMULQDQ for long buffers.
func HardwareCRC() string {
	switch runtime.GOARCH {
	case "amd64":
		if cpu.X86.HasSSE42 {
			if cpu.X86.HasPCLMULQDQ {
				return "sse4.2+pclmulqdq"
			}
			return "sse4.2"
		}
	case "arm64":
		if cpu.ARM64.HasCRC32 {
			return "arm64-crc32"
		}
	}
	return "none"
}

package workloads

import (
	"fmt"
	"strings"

	"github.com/fastpathlab/fplab/cell"
)

// Format names a wire format of the message bodies in the corpus topics.
type Format string

// The five formats the lab measures, named by the lab's one vocabulary
// (cell).
const (
	FormatJSON     Format = cell.FormatJSON
	FormatAvro     Format = cell.FormatAvro
	FormatProtobuf Format = cell.FormatProtobuf
	FormatCSV      Format = cell.FormatCSV
	FormatRaw      Format = cell.FormatRaw
)

// Formats lists every format in cell.Formats' order.
func Formats() []Format {
	var fs []Format
	for _, f := range cell.Formats() {
		fs = append(fs, Format(f))
	}
	return fs
}

// ParseFormat maps a spec or flag value to a Format.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats() {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown format %q (want %s)", s, strings.Join(cell.Formats(), ", "))
}

// NewCodec returns the codec of format f for schema s. For FormatRaw the
// codec's Schema() is s.Raw(): one binary column "value" whose bytes are the
// JSON encoding of an s row.
func NewCodec(f Format, s *Schema) (Codec, error) {
	if s == nil {
		return nil, fmt.Errorf("nil schema")
	}
	base := s.Base()
	switch f {
	case FormatJSON:
		return &jsonCodec{schema: base}, nil
	case FormatAvro:
		return &avroCodec{schema: base}, nil
	case FormatProtobuf:
		return &protoCodec{schema: base}, nil
	case FormatCSV:
		return &csvCodec{schema: base}, nil
	case FormatRaw:
		return &rawCodec{schema: base.Raw(), json: &jsonCodec{schema: base}}, nil
	}
	return nil, fmt.Errorf("unknown format %q (want %s)", string(f), strings.Join(cell.Formats(), ", "))
}

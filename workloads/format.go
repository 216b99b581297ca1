package workloads

import "fmt"

// Format names a wire format of the message bodies in the corpus topics.
type Format string

// The five formats the lab measures.
const (
	FormatJSON     Format = "json"
	FormatAvro     Format = "avro"
	FormatProtobuf Format = "protobuf"
	FormatCSV      Format = "csv"
	FormatRaw      Format = "raw"
)

// Formats lists every format in a fixed order.
func Formats() []Format {
	return []Format{FormatJSON, FormatAvro, FormatProtobuf, FormatCSV, FormatRaw}
}

// ParseFormat maps a spec or flag value to a Format.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats() {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("workloads: unknown format %q (want json, avro, protobuf, csv or raw)", s)
}

// NewCodec returns the codec of format f for schema s. For FormatRaw the
// codec's Schema() is s.Raw(): one binary column "value" whose bytes are the
// JSON encoding of an s row.
func NewCodec(f Format, s *Schema) (Codec, error) {
	if s == nil {
		return nil, fmt.Errorf("workloads: nil schema")
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
	return nil, fmt.Errorf("workloads: unknown format %q (want json, avro, protobuf, csv or raw)", string(f))
}

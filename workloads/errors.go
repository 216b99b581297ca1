package workloads

// parseErr is a static parse failure. Decoders return package-level values
// of it, so a failing message costs no allocation; each wraps ErrParse.
type parseErr string

func (e parseErr) Error() string { return ErrParse.Error() + ": " + string(e) }
func (e parseErr) Unwrap() error { return ErrParse }

// Shared parse failures; format-specific ones live beside their decoder.
var (
	errTruncated = parseErr("truncated message")
	errTrailing  = parseErr("trailing bytes after the record")
	errBadUTF8   = parseErr("string is not valid UTF-8")
	errNotInt    = parseErr("value is not a 64-bit integer")
	errVarint    = parseErr("malformed varint")
)

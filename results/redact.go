package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/fastpathlab/fplab/cell"
)

// redactSpec replaces, at any depth of a manifest's spec, the value of every
// member whose key is a secret client property (cell.IsSecretKey: the spec's
// cluster_props) by cell.Redacted. Key order and everything else are kept;
// a spec without secrets comes back unchanged.
func redactSpec(raw json.RawMessage) (json.RawMessage, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return raw, nil
	}
	out, changed, err := redactValue(raw)
	if err != nil {
		return nil, fmt.Errorf("redact spec: %w", err)
	}
	if !changed {
		return raw, nil
	}
	return out, nil
}

// redactValue redacts one JSON value and reports whether it changed.
func redactValue(raw json.RawMessage) (json.RawMessage, bool, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, false, err
	}
	delim, ok := tok.(json.Delim)
	if !ok || (delim != '{' && delim != '[') {
		return raw, false, nil
	}
	var b bytes.Buffer
	b.WriteByte(byte(delim))
	changed := false
	for i := 0; dec.More(); i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		isSecret := false
		if delim == '{' {
			kt, err := dec.Token()
			if err != nil {
				return nil, false, err
			}
			key, _ := kt.(string)
			k, _ := json.Marshal(key)
			b.Write(k)
			b.WriteByte(':')
			isSecret = cell.IsSecretKey(key)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false, err
		}
		switch {
		case isSecret && string(v) != "null":
			v, changed = json.RawMessage(`"`+cell.Redacted+`"`), true
		default:
			nv, c, err := redactValue(v)
			if err != nil {
				return nil, false, err
			}
			v, changed = nv, changed || c
		}
		b.Write(v)
	}
	if _, err := dec.Token(); err != nil { // the closing delimiter
		return nil, false, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false, fmt.Errorf("trailing data after the spec")
	}
	if delim == '{' {
		b.WriteByte('}')
	} else {
		b.WriteByte(']')
	}
	return b.Bytes(), changed, nil
}

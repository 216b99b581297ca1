package ladder

import (
	"bytes"
)

// limitBuffer keeps the first max bytes written to it and drops the rest.
type limitBuffer struct {
	max int
	bytes.Buffer
}

func (l *limitBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.Len(); room > 0 {
		if len(p) > room {
			l.Buffer.Write(p[:room])
		} else {
			l.Buffer.Write(p)
		}
	}
	return len(p), nil
}

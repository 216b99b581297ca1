package ladder

import (
	"bytes"
	"strings"
)

// tailBuffer keeps the last max bytes written to it, so a chatty child's
// stderr costs bounded memory while the last lines survive.
type tailBuffer struct {
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) >= t.max {
		t.buf = append(t.buf[:0], p[len(p)-t.max:]...)
		return n, nil
	}
	if over := len(t.buf) + len(p) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, p...)
	return n, nil
}

// lines returns the last n non-empty lines.
func (t *tailBuffer) lines(n int) string {
	var out []string
	for _, l := range bytes.Split(t.buf, []byte{'\n'}) {
		if s := strings.TrimRight(string(l), "\r "); s != "" {
			out = append(out, s)
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return strings.Join(out, "\n")
}

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

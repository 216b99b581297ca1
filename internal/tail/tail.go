// Package tail keeps the last bytes a child process wrote (its stderr), so
// a chatty child costs bounded memory while its last lines survive to be
// quoted in an error or a journal row. Standard library only.
package tail

import (
	"bytes"
	"strings"
	"sync"
)

// Buffer keeps the last Max bytes written to it. It is safe for one writer
// and concurrent readers: a child's stderr is read while the child runs.
type Buffer struct {
	max int
	mu  sync.Mutex
	b   []byte
}

// New returns a Buffer that keeps the last max bytes (max > 0).
func New(max int) *Buffer { return &Buffer{max: max} }

// Write keeps the last max bytes of everything written; it never fails.
func (t *Buffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if len(p) >= t.max {
		t.b = append(t.b[:0], p[len(p)-t.max:]...)
		return n, nil
	}
	if over := len(t.b) + len(p) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	t.b = append(t.b, p...)
	return n, nil
}

// Lines returns the last n non-empty lines, joined by newlines.
func (t *Buffer) Lines(n int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for _, l := range bytes.Split(t.b, []byte{'\n'}) {
		if s := strings.TrimRight(string(l), "\r "); s != "" {
			out = append(out, s)
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return strings.Join(out, "\n")
}

// String returns the whole tail on one line: newlines become " | ".
func (t *Buffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.b))
	return strings.ReplaceAll(s, "\n", " | ")
}

// Bytes returns a copy of the tail as written.
func (t *Buffer) Bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]byte(nil), t.b...)
}

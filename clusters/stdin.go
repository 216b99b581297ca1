package clusters

import (
	"context"
	"io"
	"os"
)

// ContextUntilStdinEOF returns a context that is cancelled when the
// process's standard input, if it is a pipe or a socket, reaches EOF (or
// fails), or when parent is done. A broker started by StartEmbedded thus
// stops when its parent closes the pipe or dies. A terminal or /dev/null
// as stdin is not watched: `fplab broker` run by hand or in the background
// keeps serving until signalled.
func ContextUntilStdinEOF(parent context.Context) (context.Context, context.CancelFunc) {
	if fi, err := os.Stdin.Stat(); err != nil || !isStream(fi.Mode()) {
		return context.WithCancel(parent)
	}
	return ContextUntilEOF(parent, os.Stdin)
}

// isStream reports whether a file of this mode reaches EOF only when its
// writer goes away.
func isStream(m os.FileMode) bool {
	return m&(os.ModeNamedPipe|os.ModeSocket) != 0
}

// ContextUntilEOF is ContextUntilStdinEOF for any reader, always watched.
// Whatever is read is discarded. The reading goroutine ends at EOF or a
// read error; it may outlive cancel if r never returns.
func ContextUntilEOF(parent context.Context, r io.Reader) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	go func() {
		_, _ = io.Copy(io.Discard, r)
		cancel()
	}()
	return ctx, cancel
}

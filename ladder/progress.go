package ladder

import (
	"fmt"
	"io"
	"os"
	"time"
)

// progress prints "cell i/N elapsed ETA last: <cell> <rec/s>" after every
// child: rewriting one line on a terminal, one plain line per child
// otherwise (CI logs, tests).
type progress struct {
	w     io.Writer
	tty   bool
	total int
	done  int
	start time.Time
}

func newProgress(w io.Writer, total int, start time.Time) *progress {
	return &progress{w: w, tty: isTerminal(w), total: total, start: start}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// step reports one finished child; result is "123456 rec/s" or "FAILED ...".
func (p *progress) step(now time.Time, e Entry, result string) {
	p.done++
	elapsed := now.Sub(p.start)
	eta := time.Duration(0)
	if p.done > 0 {
		eta = elapsed / time.Duration(p.done) * time.Duration(p.total-p.done)
	}
	name := e.Cell.Name()
	if e.Warmup {
		name += " (warm-up)"
	}
	line := fmt.Sprintf("cell %d/%d elapsed %s ETA %s last: %s %s",
		p.done, p.total, elapsed.Round(time.Second), eta.Round(time.Second), name, result)
	if p.tty {
		fmt.Fprintf(p.w, "\r\x1b[K%s", line)
		return
	}
	fmt.Fprintln(p.w, line)
}

// note prints a plain message (start-up, loading, the end).
func (p *progress) note(format string, args ...any) {
	if p.tty {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
	fmt.Fprintf(p.w, "ladder: "+format+"\n", args...)
}

// finish ends the terminal's updating line.
func (p *progress) finish() {
	if p.tty && p.done > 0 {
		fmt.Fprintln(p.w)
	}
}

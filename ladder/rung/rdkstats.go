package rung

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
)

// statsInterval is how often a measured live cell of a librdkafka path
// (shallow, fast) samples librdkafka's own statistics
// (statistics.interval.ms): a tenth of its measured window, at most a
// second (a 10 s window gets a document a second, a JSON rendering a
// second in the client) and at least 10 ms (source's bound), so even a
// short window has samples of its queues, fetches and round trips.
func statsInterval(window time.Duration) time.Duration {
	return min(max(window/10, 10*time.Millisecond), time.Second).Truncate(time.Millisecond)
}

// rdkStats keeps the statistics documents of one read, one a line, for
// results.StatsPath, and folds them into a summary (rdksummary.go). source
// calls take from one goroutine, one call at a time, never after the
// reader's Close: the buffer and the summary are read after it.
type rdkStats struct {
	every time.Duration
	buf   bytes.Buffer
	sum   rdkSummary
	docs  int
	bad   int // documents that were not statistics JSON (kept out)
}

// sampleStats sets cfg to sample librdkafka's statistics into a new
// rdkStats when c is a measured live cell (it has a live directory) or a
// bounded rdkstats cell of a librdkafka path; nil otherwise (franz,
// maxrate trials, a live rung run by hand), and cfg is left as it was. A
// live cell samples at statsInterval of its window, a bounded one at its
// rdkstats interval.
func sampleStats(c *rungargs.Cell, cfg *source.Config) *rdkStats {
	if c.MaxRate() || consume.Path(c.Path) == consume.PathFranz {
		return nil
	}
	var s *rdkStats
	switch {
	case c.Live() && c.LiveDir != "":
		s = &rdkStats{every: statsInterval(c.Duration)}
	case !c.Live() && c.RdkStats > 0:
		s = &rdkStats{every: c.RdkStats}
	default:
		return nil
	}
	cfg.Stats, cfg.OnStats = s.every, s.take
	return s
}

func (s *rdkStats) take(doc []byte) {
	n := s.buf.Len()
	if err := json.Compact(&s.buf, doc); err != nil {
		s.buf.Truncate(n)
		s.bad++
		return
	}
	if err := s.sum.add(doc); err != nil {
		s.buf.Truncate(n)
		s.bad++
		return
	}
	s.buf.WriteByte('\n')
	s.docs++
}

// write keeps the documents in c's live directory (nowhere without one:
// a rung run by hand) and returns the file-config line that names them,
// with the drops the source counted.
func (s *rdkStats) write(c *rungargs.Cell, st consume.Stats) ([2]string, error) {
	line := fmt.Sprintf("%d documents every %v, not kept (no --live-dir)", s.docs, s.every)
	if c.LiveDir != "" {
		path := results.StatsPath(c.LiveDir, c.Name(), c.Rep)
		if err := os.WriteFile(path, s.buf.Bytes(), 0o644); err != nil {
			return [2]string{}, fmt.Errorf("rung: librdkafka statistics: %w", err)
		}
		line = fmt.Sprintf("%d documents every %v in %s/%s", s.docs, s.every, results.LiveDir, filepath.Base(path))
	}
	if st.StatsDropped > 0 || s.bad > 0 {
		line += fmt.Sprintf(" (%d dropped while the writer was busy, %d not JSON)", st.StatsDropped, s.bad)
	}
	return [2]string{"librdkafka-stats", line}, nil
}

package rung

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
)

// appendedPerPartition is how many records the appended case writes to
// every partition after the reader captured its stop.
const appendedPerPartition = 64

// surfaceMarks are, per failure case, the words one of which the surfaced
// error must contain (case-insensitively): a cell that fails for another
// reason than the one it sets up does not pass. The start-up failures
// also list the words of Flink's KafkaSource and Kafka's consumer, which
// path flink surfaces (jvmref).
var surfaceMarks = map[string][]string{
	cell.CaseUnknownTopic: {"does not exist", "unknown topic"},
	cell.CaseDeleted:      {"out of range"},
	cell.CaseUnreachable:  {"metadata", "connect", "refused", "brokers down", "transport"},
	cell.CaseDenied:       {"authoriz"},
	// the start-up failures (startcase.go)
	cell.CaseCommittedNoGroup:    {"group id", "group.id is required"},
	cell.CaseCommittedAbsentNone: {"no committed offset", "undefined offset with no reset policy"},
	cell.CaseCommittedBelowNone:  {"out of range"},
}

// runCase runs one parity case: a read that must finish at its stop with
// exactly the committed records of its range, or a read that must fail
// with one line naming the failure, within the cell's timeout.
func runCase(ctx context.Context, c *rungargs.Cell, b Build, cl clusters.Cluster, mem *countingAllocator, t *target, w io.Writer) error {
	start, stop := t.layout.Bounds()
	cfg := source.Config{
		Path: consume.Path(c.Path), Bootstrap: c.Bootstrap, Props: c.Props, Topic: c.Topic,
		Partitions: c.Partitions, Batch: c.Batch, CRC: c.CRC, Keys: c.Keys, Decoder: c.Value(cell.Decoder),
		Codec: t.codec, Mem: mem, Timeout: StallTimeout(c.Timeout), Tuning: source.TuningOf(c.Cell),
	}
	appendAfterOpen := false
	switch c.Case {
	case cell.CaseStartIsStop:
		cfg.Start, cfg.Stop = stop, stop
		start = stop
	case cell.CaseAppended:
		// The stop is the corpus's end, as a bounded source's enumerator
		// captured it; whatever lies past it (this cell's appends and
		// earlier repetitions') must never be delivered.
		cfg.Stop = stop
		appendAfterOpen = true
	case cell.CaseUnknownTopic:
		cfg.Topic = c.Topic + "-absent"
	case cell.CaseDeleted:
		// The ladder deleted the records below the layout's DeletedBelow; the cell
		// asserts it before it reads from offset 0, below the log start.
		want := t.layout.DeletedBelow()
		got, err := clusters.LogStart(ctx, cl, c.Topic, c.Partitions)
		if err != nil {
			return fmt.Errorf("case=%s: %w", c.Case, err)
		}
		if !slices.Equal(got, want) {
			return fmt.Errorf("case=%s: topic %s starts at %v, want %v (records not deleted)", c.Case, c.Topic, got, want)
		}
		cfg.Start = start
	case cell.CaseUnreachable:
		addr, err := deadAddress()
		if err != nil {
			return err
		}
		cfg.Bootstrap = []string{addr}
	}
	if cell.StartCase(c.Case) {
		plan, err := PlanStart(ctx, c, cl, start, stop)
		if err != nil {
			return err
		}
		plan.apply(&cfg)
		start = plan.Want
	}

	t0 := time.Now()
	v := t.verifier(c.Batch)
	st, client, err := readAll(ctx, cfg, v, func() error {
		if !appendAfterOpen {
			return nil
		}
		return appendCopies(ctx, cl, c, t)
	})
	took := time.Since(t0)

	if cell.FailureCase(c.Case) {
		return Surfaced(c, b, client, err, took, w)
	}
	if err != nil {
		return err
	}
	if err := checkParsed(st); err != nil {
		return err
	}
	if err := v.checkEnd(st, start, stop); err != nil {
		return err
	}
	if cell.StartCase(c.Case) && cfg.Group == "" {
		if err := noGroupLeft(ctx, c, cl); err != nil {
			return err
		}
	}
	return WriteResult(w, c, b, client, st.Records, []results.Metric{
		{Value: float64(st.Records), Unit: results.UnitRec},
		{Value: float64(st.Nulls), Unit: results.UnitNullRec},
		{Value: ms(took), Unit: results.UnitFinishMs},
	})
}

// readAll opens a reader, calls opened, and reads to the end, verifying
// every batch; it returns the reader's stats and client name.
func readAll(ctx context.Context, cfg source.Config, v *verifier, opened func() error) (consume.Stats, string, error) {
	client := source.ClientOf(cfg.Path)
	r, err := source.Open(ctx, cfg)
	if err != nil {
		return consume.Stats{}, client, err
	}
	defer r.Close()
	if err := opened(); err != nil {
		return consume.Stats{}, client, err
	}
	for {
		b, err := r.Next(ctx)
		if errors.Is(err, io.EOF) {
			return r.Stats(), client, nil
		}
		if err != nil {
			return r.Stats(), client, err
		}
		err = v.check(b)
		b.Rec.Release()
		if err != nil {
			return r.Stats(), client, err
		}
	}
}

// Surfaced judges a failure case: the read must have failed, before the
// cell's deadline, with one line that names the failure set up; it writes
// the cell's result (fail-ms and the line) when it did.
func Surfaced(c *rungargs.Cell, b Build, client string, err error, took time.Duration, w io.Writer) error {
	if err == nil {
		return fmt.Errorf("case=%s: the read finished without an error; it must fail", c.Case)
	}
	line := err.Error()
	switch {
	case errors.Is(err, context.DeadlineExceeded) || took >= c.Timeout:
		return fmt.Errorf("case=%s: no failure surfaced within the cell's timeout %v (last error: %s)", c.Case, c.Timeout, firstLine(line))
	case strings.Contains(line, "\n"):
		return fmt.Errorf("case=%s: the failure is not one line: %q", c.Case, line)
	}
	low := strings.ToLower(line)
	for _, m := range surfaceMarks[c.Case] {
		if strings.Contains(low, m) {
			return WriteResult(w, c, b, client, 0, []results.Metric{{Value: ms(took), Unit: results.UnitFailMs}},
				[2]string{results.ConfigSurfaced, line})
		}
	}
	return fmt.Errorf("case=%s: failed, but not for the reason set up (want one of %q): %s", c.Case, surfaceMarks[c.Case], line)
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// appendCopies appends copies of the corpus's first records to every
// partition: valid records, at offsets past the captured stop, with their
// keys and headers when the corpus is keyed.
func appendCopies(ctx context.Context, cl clusters.Cluster, c *rungargs.Cell, t *target) error {
	corpus := t.corpus
	n := corpus.Count()
	values := make(map[int32][][]byte, c.Partitions)
	for p := range c.Partitions {
		for i := range appendedPerPartition {
			values[int32(p)] = append(values[int32(p)], corpus.Message(nil, i%n))
		}
	}
	opts := []clusters.LoadOpt{clusters.WithCompression(c.Value(cell.Compression))}
	if keys := clusters.KeysOf(corpus); keys != nil {
		// the copy at index i is record i%n, key and headers included
		opts = append(opts, clusters.WithRecordMeta(func(i int, r *kgo.Record) { keys(i%n, r) }))
	}
	if err := clusters.Append(ctx, cl, c.Topic, values, opts...); err != nil {
		return fmt.Errorf("case=%s: %w", cell.CaseAppended, err)
	}
	return nil
}

// deadAddress is a loopback address no broker listens on: a port the
// kernel handed out and that was closed again at once.
func deadAddress() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("case=%s: %w", cell.CaseUnreachable, err)
	}
	addr := l.Addr().String()
	return addr, l.Close()
}

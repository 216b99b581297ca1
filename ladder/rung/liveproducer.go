package rung

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/ladder/rungargs"
)

// A live cell's producer runs in a process of its own (role producer: the
// same binary, `fplab rung --role producer`), so that its CPU, its
// allocations and its garbage collector are not the path's: the reader's
// cpu-ns/rec and peak RSS stay the path's own. It writes with franz-go
// (clusters.ProducePaced), the client the lab's loader already uses: pure
// Go, one process-wide pacing loop, a manual partitioner that places record
// i on partition i % P as the bounded corpus is placed, and an
// acknowledgement per record; a librdkafka producer would put a second
// instance of the library under test in the measurement's neighbourhood.

// producerName says which producer a live cell ran, in its file-config.
const producerName = "franz-go (clusters.ProducePaced), own process"

// producerReport is what a producer process prints on its stdout, one JSON
// object, once every record is acknowledged.
type producerReport struct {
	Records   int64   `json:"records"`
	Bytes     int64   `json:"bytes"`
	T0        int64   `json:"t0_ns"`
	LastSend  int64   `json:"last_send_ns"`
	LastAck   int64   `json:"last_ack_ns"`
	MaxBehind int64   `json:"max_behind_ns"`
	Achieved  float64 `json:"achieved_rec_per_sec"`
	// CodecRecords counts the records written per batch codec.
	CodecRecords map[string]int64 `json:"codec_records"`
}

// runProducer is a producer process: it writes the cell's corpus to its
// topic at its rate from T0 and prints a producerReport.
func runProducer(ctx context.Context, c *rungargs.Cell, w io.Writer) error {
	corpus, _, err := cellCorpus(c)
	if err != nil {
		return err
	}
	st, err := clusters.ProducePaced(ctx, clusters.Cluster{Bootstrap: c.Bootstrap, Props: c.Props}, clusters.Paced{
		Topic: c.Topic, Partitions: c.Partitions, Records: c.Records, Rate: float64(c.Rate),
		T0: time.Unix(0, c.T0), Message: corpus.Message, Meta: clusters.KeysOf(corpus),
		Compression: c.Value(cell.Compression),
	})
	if err != nil {
		return fmt.Errorf("producer: %w", err)
	}
	return json.NewEncoder(w).Encode(producerReport{
		Records: st.Records, Bytes: st.Bytes, T0: st.T0.UnixNano(), LastSend: st.LastSend.UnixNano(),
		LastAck: st.LastAck.UnixNano(), MaxBehind: int64(st.MaxBehind), Achieved: st.Achieved,
		CodecRecords: st.CodecRecords,
	})
}

// producerProc is a running producer process.
type producerProc struct {
	cmd    *exec.Cmd
	out    bytes.Buffer
	cancel context.CancelFunc
	// done is closed once the process has exited and err is its Wait's
	// error: wait and stop may both look, in either order
	done chan struct{}
	err  error
}

// startProducer starts c's producer process, writing from t0.
func startProducer(ctx context.Context, c *rungargs.Cell, t0 time.Time) (*producerProc, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	pc := *c
	pc.Role, pc.T0 = rungargs.RoleProducer, t0.UnixNano()
	pc.LiveDir, pc.HashCache, pc.CPUProfile, pc.MemProfile = "", "", "", ""
	argv := rungargs.WrapArgv(append([]string{exe, "rung"}, pc.Args()...))
	files, err := pc.SecretFiles()
	if err != nil {
		return nil, err
	}
	p, err := startProc(ctx, argv, files)
	for _, f := range files {
		f.Close()
	}
	return p, err
}

// startProc starts argv as a producer process, handing it files.
func startProc(ctx context.Context, argv []string, files []*os.File) (*producerProc, error) {
	pctx, cancel := context.WithCancel(ctx)
	p := &producerProc{cancel: cancel, done: make(chan struct{})}
	p.cmd = exec.CommandContext(pctx, argv[0], argv[1:]...)
	p.cmd.Stdout, p.cmd.Stderr, p.cmd.ExtraFiles = &p.out, os.Stderr, files
	p.cmd.Cancel = func() error { return p.cmd.Process.Signal(syscall.SIGKILL) }
	p.cmd.WaitDelay = 5 * time.Second
	if err := p.cmd.Start(); err != nil {
		cancel()
		return nil, fmt.Errorf("start the producer: %w", err)
	}
	go func() { p.err = p.cmd.Wait(); close(p.done) }()
	return p, nil
}

// wait waits for the producer to end and returns its report.
func (p *producerProc) wait(ctx context.Context) (producerReport, error) {
	select {
	case <-p.done:
	case <-ctx.Done():
		p.cancel()
		<-p.done
		return producerReport{}, fmt.Errorf("producer: %w", ctx.Err())
	}
	if err := p.err; err != nil {
		return producerReport{}, fmt.Errorf("producer process: %w (its stderr is above)", err)
	}
	var r producerReport
	if err := json.Unmarshal(p.out.Bytes(), &r); err != nil {
		return producerReport{}, fmt.Errorf("producer printed no report: %w", err)
	}
	return r, nil
}

// stop kills the producer if it still runs and waits for it (10 s at
// most): a failed reader leaves no producer behind. It reports whether
// the process was seen to end; after wait it has ended already.
func (p *producerProc) stop() bool {
	p.cancel()
	select {
	case <-p.done:
		return true
	case <-time.After(10 * time.Second):
		return false
	}
}

// errBehind fails a cell whose producer did not keep its rate.
var errBehind = errors.New("live: the producer fell behind its rate")

// producerShareNum/Den is the share of the target rate a producer must
// achieve: below it, the cell's figures describe another rate.
const producerShareNum, producerShareDen = 95, 100

// checkProducer fails the cell when the producer wrote other than the
// cell's records, or achieved less than 95% of its rate.
func checkProducer(c *rungargs.Cell, r producerReport) error {
	if r.Records != int64(c.Records) {
		return fmt.Errorf("live: the producer reports %d records, the cell writes %d", r.Records, c.Records)
	}
	if r.Achieved*producerShareDen < float64(c.Rate)*producerShareNum {
		return fmt.Errorf("%w: %.0f rec/s achieved, below %d%% of rate=%d (it fell up to %v behind its schedule); its figures would describe another rate",
			errBehind, r.Achieved, producerShareNum, c.Rate, time.Duration(r.MaxBehind).Round(time.Millisecond))
	}
	return nil
}

// checkLiveCompression checks a live cell's codec claim and returns the
// share of its records written in batches of that codec. franz-go sends a
// batch plain when the codec would not shrink it, which a paced producer's
// small batches often are, so a live topic of a compression cell holds
// batches of its codec and plain ones: every record must be in one of the
// two, by the producer's count and by the broker's (the last batches read
// back), and some in the codec's, or the cell measured no decompression.
func checkLiveCompression(ctx context.Context, cl clusters.Cluster, c *rungargs.Cell, prod producerReport) (float64, error) {
	want := c.Value(cell.Compression)
	claimed := func(codec string) bool { return codec == want || codec == cell.CompressionNone }
	var total int64
	for codec, n := range prod.CodecRecords {
		if !claimed(codec) {
			return 0, fmt.Errorf("cell claims compression=%s but the producer wrote %d records in %s batches", want, n, codec)
		}
		total += n
	}
	if total != int64(c.Records) {
		return 0, fmt.Errorf("live: the producer counted %d records in its batches, the cell writes %d", total, c.Records)
	}
	stored, err := clusters.StoredCodecs(ctx, cl, c.Topic, c.Partitions)
	if err != nil {
		return 0, fmt.Errorf("stored compression: %w", err)
	}
	for _, codec := range stored {
		if !claimed(codec) {
			return 0, fmt.Errorf("cell claims compression=%s but topic %s is stored with %s", want, c.Topic, codec)
		}
	}
	if want != cell.CompressionNone && prod.CodecRecords[want] == 0 {
		return 0, fmt.Errorf("cell claims compression=%s but the producer sent every batch plain (%s would not shrink its batches at rate=%d; franz-go sends those plain)", want, want, c.Rate)
	}
	return float64(prod.CodecRecords[want]) / float64(total), nil
}

package ladder

import (
	"context"
	"fmt"
	"strconv"
	"syscall"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/internal/oneline"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/workloads"
	"github.com/fastpathlab/fplab/workloads/stock"
)

// The micro-benchmarks a spec can ask for (`micro: [crossthread, crc32c, decode]`).
// Each runs as `<bin> micro ...` child processes after the cells and lands
// in the journal and tables as rows named micro=<bench>/...:
//
//   - crossthread: malloc on one OS thread, free on another (librdkafka's
//     op per message, allocated on its broker thread and freed on the
//     application thread), in the binary of every allocator of the spec, at
//     an op-struct size and an Arrow-buffer size; units pairs/s and ns/pair.
//   - crc32c: Go's hash/crc32 Castagnoli (hardware where Go has it) against
//     a software slicing-by-8 (what librdkafka pays without hardware
//     CRC32C), at a corpus message size and a 1 MiB buffer; units crc-MB/s
//     and crc-ns/msg.
//   - decode: the lab's columnar decoder against the stock Go libraries
//     (workloads/stock), every (format, lib) pair of the spec's formats
//     that have stock routes (raw has none), on the spec's schema and seed:
//     corpus records decoded into Arrow batches of 8192 rows, each batch
//     verified against the corpus; units dec-ns/rec, dec-rec/s,
//     dec-cpu-ns/rec (CPU time of every thread), dec-B/rec and
//     dec-allocs/rec. The batches come from Go's allocator, or with
//     decode_mem: [go, pool] also from the paths' recycling pool over it
//     (rows named .../mem=pool).
//
// The benchmark names and row names are cell's (cell.Micros,
// cell.CrossThreadName, ...).

// microRun is one micro-benchmark child: its argv (after the binary), the
// binary's allocator and the row name it must print.
type microRun struct {
	alloc string
	args  []string
	name  string
}

// microRuns lists the children of one repetition.
func microRuns(s *Spec) []microRun {
	var out []microRun
	for _, m := range s.Micro {
		switch m {
		case cell.MicroCrossThread:
			for _, a := range s.Alloc {
				for _, size := range []int{256, 64 << 10} {
					out = append(out, microRun{alloc: a,
						args: []string{"micro", "--bench", m, "--size", strconv.Itoa(size)},
						name: cell.CrossThreadName(size, a)})
				}
			}
		case cell.MicroCRC32C:
			for _, impl := range []string{"go-castagnoli", "sw-slicing8"} {
				for _, size := range []int{128, 1 << 20} {
					out = append(out, microRun{alloc: "go",
						args: []string{"micro", "--bench", m, "--impl", impl, "--size", strconv.Itoa(size)},
						name: cell.CRC32CName(impl, size)})
				}
			}
		case cell.MicroDecode:
			out = append(out, decodeRuns(s)...)
		}
	}
	return out
}

// decodeRuns lists the decode children: every (format, lib) route of the
// spec's formats at each size, on each of its decode_mem allocators.
func decodeRuns(s *Spec) []microRun {
	sizes := s.Size
	if len(sizes) == 0 {
		sizes = []string{"100"}
	}
	mems := s.DecodeMem
	if len(mems) == 0 {
		mems = []string{cell.DecodeMemGo}
	}
	var out []microRun
	for _, mem := range mems {
		for _, sz := range sizes {
			size, _ := strconv.Atoi(sz) // the spec's size axis, validated
			for _, f := range s.Format {
				for _, lib := range stock.Libs(workloads.Format(f)) {
					args := []string{"micro", "--bench", cell.MicroDecode, "--format", f, "--lib", lib,
						"--schema", s.Schema, "--seed", strconv.FormatUint(s.Seed, 10),
						"--value-size", strconv.Itoa(size)}
					if mem != cell.DecodeMemGo {
						args = append(args, "--mem", mem)
					}
					out = append(out, microRun{alloc: "go", args: args, name: cell.DecodeName(f, lib, size, mem)})
				}
			}
		}
	}
	return out
}

// runMicro runs every micro-benchmark repetition the journal lacks and
// journals each as a row; a failed child is a failed row, as for cells.
func (r *runner) runMicro(ctx context.Context, jr *results.Journal, done map[results.CellRep]bool, prog *progress) error {
	for rep := 0; rep < r.spec.Repetitions; rep++ {
		for _, m := range microRuns(r.spec) {
			if done[results.CellRep{Cell: m.name, Rep: rep}] {
				continue
			}
			if ctx.Err() != nil {
				return fmt.Errorf("interrupted in micro-benchmarks; resume with the run directory %s", r.dir)
			}
			bin, ok := r.bins[m.alloc]
			if !ok {
				bin = r.bins["go"]
			}
			res := runChild(ctx, childCmd{Bin: bin, Args: m.args, Env: r.opt.ChildEnv, TmpBase: r.scratch.dir,
				Timeout: r.spec.Timeout, Grace: r.opt.Grace, CPUs: r.opt.CellCPUs})
			if res.Canceled {
				return fmt.Errorf("interrupted in micro-benchmarks; resume with the run directory %s", r.dir)
			}
			row := microRow(m, rep, res)
			if diskFull(nil, row.Reason, row.StderrTail) {
				return fmt.Errorf("%w: disk full (%s) under %s; %s rep %d failed (%s) and is not journaled; resume with the run directory %s",
					ErrInfra, syscall.ENOSPC, r.dir, m.name, rep, row.Reason, r.dir)
			}
			if err := jr.Append(row); err != nil {
				return r.journalError(err)
			}
			prog.note("%s rep %d: %s", m.name, rep, summary(row))
		}
	}
	return nil
}

func microRow(m microRun, rep int, res childResult) results.Row {
	row := results.Row{Cell: m.name, Rep: rep, Start: res.Start, End: res.End}
	fail := func(reason string) results.Row {
		row.Reason, row.Signal, row.StderrTail = reason, res.Signal, res.StderrTail
		return row
	}
	switch {
	case res.StartErr != nil:
		return fail("start: " + oneline.Err(res.StartErr))
	case res.TimedOut:
		return fail("timeout")
	case res.Exit != 0:
		return fail(fmt.Sprintf("exit status %d: %s", res.Exit, res.LastLine))
	}
	b, err := results.ParseBench(res.Stdout)
	if err != nil {
		return fail("bad output: " + oneline.Err(err))
	}
	if b.Name != m.name {
		return fail(fmt.Sprintf("bad output: child reported %s, want %s", b.Name, m.name))
	}
	row.OK, row.Iters, row.Metrics, row.Config = true, b.Iters, b.Metrics, b.Config
	row.Measured = res.End.Sub(res.Start)
	return row
}

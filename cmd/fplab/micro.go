package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/alloc"
	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/workloads"
	"github.com/fastpathlab/fplab/workloads/crc"
	"github.com/fastpathlab/fplab/workloads/stock"
)

// runMicro runs one micro-benchmark and prints it as one ladder result, so
// its rows land in the same journal and tables as the cells.
func runMicro(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("micro", stderr)
	bench := fs.String("bench", "", "crossthread, crc32c or decode")
	size := fs.Int("size", 256, "block (crossthread) or message (crc32c) size in bytes")
	impl := fs.String("impl", "go-castagnoli", "crc32c implementation")
	n := fs.Int("n", 1_000_000, "crossthread: malloc/free pairs")
	format := fs.String("format", string(workloads.FormatJSON), "decode: wire format (json, avro, protobuf, csv)")
	lib := fs.String("lib", stock.Lab, "decode: lab or a stock library route of the format")
	schema := fs.String("schema", stock.DefaultSchema, "decode: record schema")
	records := fs.Int("records", stock.DefaultRecords, "decode: corpus records, decoded in batches of 8192")
	seed := fs.Uint64("seed", 42, "decode: corpus seed")
	mem := fs.String("mem", stock.MemGo, "decode: the batches' allocator, pool (the paths' recycling pool over Go's) or go (Go's alone, every batch fresh)")
	valueSize := fs.Int("value-size", 100, "decode: bytes per record (the records' extra column padded, workloads.ValueSize; 100 is the natural size)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *size <= 0 {
		return fmt.Errorf("--size must be > 0, got %d", *size)
	}
	var name string
	var metrics [][2]any
	var iters int64
	var config []string
	switch *bench {
	case cell.MicroCrossThread:
		if _, err := alloc.Proof(); err != nil {
			return fmt.Errorf("alloc=%s not in force: %w", alloc.Name(), err)
		}
		start := time.Now()
		rate, err := alloc.CrossThread(*n, *size)
		if err != nil {
			return err
		}
		if time.Since(start) <= 0 || rate <= 0 {
			return errors.New("crossthread measured nothing")
		}
		name = cell.CrossThreadName(*size, alloc.Name())
		iters = int64(*n)
		metrics = [][2]any{{rate, "pairs/s"}, {1e9 / rate, "ns/pair"}}
	case cell.MicroCRC32C:
		rs, err := crc.Measure(ctx, crc.Options{Sizes: []int{*size}, Impls: []string{*impl}})
		if err != nil {
			return err
		}
		r := rs[0]
		name = cell.CRC32CName(r.Impl, r.Size)
		iters = r.Iters
		metrics = [][2]any{{r.MBps, "crc-MB/s"}, {r.NsPerMsg, "crc-ns/msg"}}
	case cell.MicroDecode:
		f, err := decodeFormat(*format)
		if err != nil {
			return err
		}
		if _, err := stock.Lookup(f, *lib); err != nil {
			return fmt.Errorf("unknown --lib %q for --format %s (want %s)", *lib, f, strings.Join(stock.Libs(f), ", "))
		}
		if _, err := workloads.SchemaByName(*schema); err != nil {
			return fmt.Errorf("unknown --schema %q (want %s)", *schema, strings.Join(workloads.SchemaNames(), " or "))
		}
		if *records <= 0 {
			return fmt.Errorf("--records must be > 0, got %d", *records)
		}
		if *valueSize <= 0 {
			return fmt.Errorf("--value-size must be > 0, got %d", *valueSize)
		}
		rs, err := stock.Measure(ctx, stock.Options{Formats: []workloads.Format{f}, Libs: []string{*lib},
			Schema: *schema, Records: *records, Seed: *seed, Size: *valueSize, Mem: *mem})
		if err != nil {
			return err
		}
		r := rs[0]
		name = r.Name()
		iters = r.Records
		metrics = [][2]any{{r.NsPerRec, results.UnitDecNsPerRec}, {r.RecPerSec, results.UnitDecRecPerSec}, {r.CPUNsPerRec, results.UnitDecCPUNsPerRec},
			{r.BytesPerRec, results.UnitDecBytesPerRec}, {r.AllocsPerRec, results.UnitDecAllocsPerRec}}
		config = []string{"decode-schema: " + r.Schema, "decode-library: " + r.Library}
	default:
		return fmt.Errorf("unknown --bench %q (want %s, %s or %s)", *bench, cell.MicroCrossThread, cell.MicroCRC32C, cell.MicroDecode)
	}
	fmt.Fprintf(stdout, "goos: linux\ngoarch: %s\nalloc-version: %s\ncrc32c-hardware: %s\n", goarch(), alloc.Version(), crc.HardwareCRC())
	for _, c := range config {
		fmt.Fprintln(stdout, c)
	}
	fmt.Fprintf(stdout, "BenchmarkLadder/%s %d", name, iters)
	for _, m := range metrics {
		fmt.Fprintf(stdout, " %.6g %s", m[0], m[1])
	}
	fmt.Fprintln(stdout)
	return nil
}

// decodeFormat is the --format of a decode micro-benchmark: a format with
// stock routes (raw has nothing to decode).
func decodeFormat(s string) (workloads.Format, error) {
	var names []string
	for _, f := range stock.Formats() {
		if string(f) == s {
			return f, nil
		}
		names = append(names, string(f))
	}
	return "", fmt.Errorf("unknown --format %q for --bench decode (want %s)", s, strings.Join(names, ", "))
}

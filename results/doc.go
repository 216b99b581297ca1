// Package results is the lab's run store: it turns what ladder children
// print into a run directory and reads run directories back for tables,
// comparisons, the regression gate and plots.
//
// # Where it sits
//
//	spec -> cells -> child process -> result -> journal -> tables/plots/report
//	                                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
//	                                  this package
//
// A child (one cell, one repetition) prints the Go benchmark format: file
// configuration lines (goos, goarch, cpu, go, alloc-version, commit,
// cluster, ...) and one line
//
//	BenchmarkLadder/path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off 2000000 250.5 ns/rec 3992000 rec/s ...
//
// The pipeline is:
//
//	child stdout --ParseBench--> Row --Journal.Append--> journal.jsonl
//	journal.jsonl --ReadJournal--> []Row --+--WriteRaw----> raw.txt (stock benchstat reads it)
//	                                       +--WriteTables-> tables/<unit>-by-<axis>.{txt,csv,md}
//	                                       +--Compare-----> deltas and Regressions between runs
//	                                       +--NoiseFloor--> A/A calibration
//	                                       +--Knee--------> batch-size knee per line
//
// results is a leaf: of the project it imports only cell (the vocabulary,
// standard library only, whose secret-key rule WriteManifest redacts the
// spec with) and results/texttab (the table layout
// and number formatter, likewise), so cmd/ and plots/ read runs without
// the ladder or any Kafka client. The analysis the figures and the report show
// lives here, not in plots: package report sits above results and plots,
// takes its figures (tables, knee, noise floor) from here and has plots
// only draw. It follows golang.org/x/perf:
// benchfmt reads and writes the format, benchproc projects the key=value
// parts of the cell names onto table rows and columns, benchmath computes
// the statistics; the data model (Table, Stat, Comparison, Noise) is kept
// apart from its renderers (text, CSV, Markdown).
//
// # Counting rows
//
// Index is the one view of a journal everything else reads: rows by cell
// and repetition under one rule. A (cell, rep) pair journaled more than
// once (a resumed or retried ladder) counts once, by its last row; a unit
// printed twice in one row counts once, by its first value (Row.Counted).
// BuildTables and Compare, SweptCells (Knee and every figure of package
// plots), UnitValues (CompareRatio, NoiseFloor), Merge's per-source counts
// and package report's counts, gaps and failure lists all go through it,
// so one journal gives one count of repetitions in the tables, the figures
// and the report. Summarize is the one summary of a cell's samples (the
// median and its interval) wherever one is printed or drawn.
//
// # A run directory
//
// NewRunDir creates <root>/<UTC stamp>-<host>/ (root is normally
// DefaultRoot, results/runs) holding:
//
//   - manifest.json: Manifest — host Fingerprint, Go, librdkafka and
//     allocator versions, commit, the ladder's spec (secret client
//     properties written as REDACTED), start/end, measured fraction,
//     emulation and build flags.
//   - journal.jsonl: one Row per line, fsynced per row. A killed ladder
//     leaves at most a torn last line: ReadJournal drops it and says so,
//     OpenJournal cuts it before appending; Finished/Done tell a resumed
//     ladder which (cell, rep) pairs to skip. Corruption before the last
//     line is an error naming file and line.
//   - raw.txt: the OK rows in benchmark format (failed rows have no place
//     in it; they stay in the journal and the report).
//   - tables/: one table per unit and swept axis, in three renderings.
//
// ReadRun reads a run directory back (manifest and journal). Stock
// benchstat reads raw.txt as is; it starts a new table wherever a
// configuration line changes (alloc-version differs per allocator), so
// for one table per unit run
//
//	benchstat -table '' raw.txt
//
// # Merging runs from several hosts
//
// Merge combines runs (say one from an x86 and one from an ARM host) into
// one: every row's cell name gets arch=<Host.Arch> first ("-emulated"
// appended for an emulated run), so the tables pivot on arch like any other
// axis. It refuses runs of different specs, incomplete runs (CheckComplete:
// torn journal, missing (cell, rep) pairs) and two runs of one arch unless
// forced, and never merges a merged run. WriteMergedTo writes the result as
// a run directory plus sources.json (ReadSources), the runs it came from.
// DetectEmulation tells the ladder whether it runs under qemu.
//
// # Statistics
//
// As benchstat: each cell's reps form a benchmath.Sample summarised by
// its median with a distribution-free 95% confidence interval
// (benchmath.AssumeNothing; fewer than 6 reps give "± ∞"), and columns are
// compared with the Mann-Whitney U test at alpha 0.05 ("~" when not
// significant). On top, every cell carries its coefficient of variation
// (sample standard deviation / mean); above 5% (DefaultNoisyCV) the cell
// is marked "!" as noisy.
//
// A table takes one unit and one swept axis (an axis with more than one
// value among the cells that report the unit): its columns are that axis's
// values (numbers numerically, then strings alphabetically, or the order
// TableOptions.Order gives — the first column is the baseline), its rows
// the combinations of the other swept axes; axes with one value are listed
// as "fixed" in the title. Values are scaled with SI prefixes whatever the
// unit, since the units are the children's own (MB/s is already scaled):
// texttab.Scale, benchunit's decimal scale, one per table row as in
// benchstat ("3.991M", "504.5m").
//
// # Rendering
//
// Every rendering of a Table goes through package results/texttab, the
// lab's one layout layer: WriteText (tables/*.txt, fplab compare) in
// benchstat's column-group layout, WriteCSV with full-precision values,
// and WriteMarkdown (tables/*.md), whose body WriteMarkdownNotes also
// writes into report.md. A Notes hook decides how footnotes (a Stat's
// warnings) and gaps (a cell without a Stat, a CV without spread, a delta
// without a baseline) are marked: superscripts listed under the table in
// tables/*.md, the report's numbered footnotes in report.md. The figures
// themselves are printed alike in both.
// A cell name's last value should not end in "-<digits>": stock benchstat
// reads that as a GOMAXPROCS suffix (this package's own tables do not).
//
// # Regressions
//
// Compare pairs the cells two runs share. A change is a regression when
// it is significant (U test, alpha 0.05), in the unit's bad direction
// (Better: higher is better for rec/s and MB/s; lower for ns/rec,
// cpu-ns/rec, B/rec, allocs/rec, peak-RSS-MB, startup-ms, recover-ms,
// replay-rec, lost-rec, dup-rec and every ckpt-*-ms; other units such as
// window-ms and rec/crossing are informational), and larger than the
// threshold (DefaultThreshold, 5%) relative to the old median.
// CheckComparable refuses runs whose fingerprints differ in CPU model,
// cores, architecture or kernel (the host name does not count), or of
// which one ran emulated, unless forced.
//
// # Units
//
// units.go names every unit the directions table knows, once:
// UnitRecPerSec is rec/s, UnitCkptP99 ckpt-p99-ms, UnitReplayRec
// replay-rec, UnitWindowMs window-ms, and so on. The rung child prints
// them and the ladder, tables, figures, knee and report read them through
// these constants; no other file outside tests spells one of them.
//
// # The knee
//
// Knee(rows, budgetMs) is, per format, path and setting (the cell's other
// dimensions, "brokers=3 alloc=go crc=off"), the batch size with the
// highest median rec/s whose median ckpt-p99-ms is within the budget
// (DefaultBudgetMs, 100 ms); ties go to the lower p99, then the smaller
// batch. Lines where no batch qualifies say why ("none within budget ...",
// "no ckpt-p99-ms samples"). It reads SweptCells: A/A calibration cells
// are left out and a resumed (cell, rep) pair counts once. A line's
// Setting is rendered by Setting (keys in cell-name order, SortKeys), the
// rule plots names a held setting by. The report prints the knee as a
// table; plots rings it on the trade-off figure.
//
// # Noise floor (A/A calibration)
//
// The ladder runs one cell under two names (cell+"/aa=a", cell+"/aa=b").
// CompareRatio (RatioCI) sets one cell against another on one unit, and
// NoiseFloor (Noise) does so for the two names of an A/A pair, per unit:
//
//   - Ratio: median(b) / median(a), the figure a table delta would show.
//   - Lo, Hi: a distribution-free 95% interval for the b/a ratio — Moses'
//     interval for a shift, taken on log values: the k-th smallest and
//     k-th largest of all pairwise log(b_j/a_i), with k from the exact
//     Mann-Whitney null distribution. It is the interval that goes with
//     the U test the tables use: a shift outside it is one the test
//     would call significant. Shift is the matching Hodges-Lehmann point
//     estimate.
//   - Detectable (Noise only) = max(Hi-1, 1-Lo): the farthest the interval reaches from
//     "no change". Two identical configurations produced any ratio inside
//     the interval, so with this many reps a real difference smaller than
//     Detectable cannot be told from the harness's own noise. Unlike the
//     half-width it also covers an off-centre interval, i.e. a harness
//     bias between the two names (Biased is set when the interval
//     excludes 1; find that bias before believing any delta). A difference
//     of exactly Detectable is caught about half the time; for ~80% power
//     plan on about 1.4x it ((1.96+0.84)/1.96).
package results

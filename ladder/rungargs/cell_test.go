package rungargs_test

import (
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rungargs"
)

// full is a cell with every field set.
func full() rungargs.Cell {
	return rungargs.Cell{
		Cell: cell.Cell{Path: "fast", Format: "raw", Batch: 8, Brokers: 3, Alloc: "mimalloc3", CRC: true,
			Cluster: "kafka", Compression: "lz4", Ckpt: time.Millisecond, Prof: true, AA: "b"},
		Bootstrap: []string{"a:1", "b:2"}, Topic: "t", Partitions: 1, Records: 1, Seed: 9, Schema: "bid",
		Timeout: time.Second, Props: map[string]string{"b": "2", "a": "1"},
		HashCache: "/h", Failures: 2, KillSeed: 5, CkptDir: "/c", Role: rungargs.RoleReader,
		CPUProfile: "/p/cpu", MemProfile: "/p/mem",
	}
}

// TestArgsRoundTrip: Parse(c.Args()) == c, for a cell with every field set
// and for the smallest valid cell, and the child's name is the ladder's.
func TestArgsRoundTrip(t *testing.T) {
	small := rungargs.Cell{Cell: cell.Cell{Path: "java", Format: "json", Batch: 1, Brokers: 1, Alloc: "go", Cluster: "embedded", Compression: "none"},
		Bootstrap: []string{"h:1"}, Topic: "t", Partitions: 1, Records: 1, Seed: 1, Schema: "bid", Timeout: time.Minute}
	kill := small
	kill.Path, kill.Fault, kill.FaultSocket = "franz", cell.FaultKill, "/run/fault.sock"
	live := small
	live.Path, live.Mode, live.Rate, live.Linger = "fast", cell.ModeLive, 20_000, 10*time.Millisecond
	live.Warmup, live.Duration, live.LiveDir, live.Rep = time.Second, 2*time.Second, "/run/live", 3
	live.Records = 60_000
	producer := live
	producer.Role, producer.T0 = rungargs.RoleProducer, 1_700_000_000_000_000_000
	maxrate := live
	maxrate.Mode, maxrate.Rate = cell.ModeMaxRate, 0
	maxrate.MaxRateFrom, maxrate.MaxRateTo, maxrate.MaxRateP99 = 10_000, 1_000_000, 50*time.Millisecond
	maxrate.Records = 3_000_000
	woken := live
	woken.Wake = 20 * time.Millisecond
	bwoken := small
	bwoken.Path, bwoken.Wake = "shallow", time.Second
	paused := live
	paused.Pause = 100 * time.Millisecond
	committing := full()
	committing.Commit, committing.Group = true, "fplab-ckpt-fast-1"
	rescaling := full()
	rescaling.Commit, rescaling.Rescale, rescaling.Partitions = false, cell.Rescale{From: 3, To: 2}, 3
	rescaled := rescaling
	rescaled.Role, rescaled.Subtasks = rungargs.RoleReader, 2
	discovering := live
	discovering.Discover = 100 * time.Millisecond
	tuned := small
	tuned.Drain = cell.DrainBatchQueue
	tuned.Path, tuned.PartFetch, tuned.QueueMin, tuned.FetchWait = "fast", 262144, 1_000_000, 10*time.Millisecond
	tuned.RdkStats, tuned.LiveDir, tuned.Rep = 100*time.Millisecond, "/run/live", 2
	liveTuned := live
	liveTuned.QueueMin = 5000
	callback := small
	callback.Path, callback.Drain = "fast", cell.DrainCallback
	for _, c := range []rungargs.Cell{full(), small, kill, live, producer, maxrate, woken, bwoken, paused, committing, rescaling, rescaled, discovering, tuned, liveTuned, callback} {
		back, err := rungargs.Parse(c.Args(), io.Discard)
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.Args(), err)
		}
		if !reflect.DeepEqual(back, c) {
			t.Errorf("round trip\n got %+v\nwant %+v", back, c)
		}
	}
	c := full()
	args := strings.Join(c.Args(), " ")
	for _, want := range []string{"--crc on", "--cluster kafka", "--compression lz4 --checkpoint-interval 1ms", "--prof on", "--aa b", "--cluster-prop a=1 --cluster-prop b=2",
		"--cpuprofile /p/cpu --memprofile /p/mem"} {
		if !strings.Contains(args, want) {
			t.Errorf("args %s lack %q", args, want)
		}
	}
	if want := "path=fast/format=raw/batch=8/brokers=3/alloc=mimalloc3/crc=on/cluster=kafka/compression=lz4/ckpt=1ms/prof=on/aa=b"; c.Name() != want {
		t.Errorf("name %s, want %s", c.Name(), want)
	}
}

func TestParseRejects(t *testing.T) {
	base := []string{"--bootstrap", "h:1", "--topic", "t", "--records", "1"}
	for args, want := range map[string]string{
		"--format xml":                     "unknown format",
		"--path slow":                      "unknown path",
		"--alloc tcmalloc":                 "unknown alloc",
		"--cluster cloud":                  "unknown cluster",
		"--compression brotli":             "compression=brotli: unknown compression",
		"--crc maybe":                      "--crc must be on or off",
		"--prof yes":                       "--prof must be on or off",
		"--aa c":                           "unknown aa",
		"--fault kill":                     "needs a --fault-socket",
		"--fault-socket /s":                "needs a --fault-socket",
		"--batch 0":                        "batch must be > 0, got 0",
		"--batch -5":                       "batch must be > 0, got -5",
		"--failures 1":                     "need checkpoints",
		"--path java --wake 20ms":          "only a plain bounded or live cell of a Go path wakes its reader",
		"--path fast --wake -1s":           "wake must be >= 0",
		"--path fast --pause 1s --wake 1s": "no wake too",
		"--path fast --commit on":          "commit=on commits completed checkpoints' positions",
		"--path fast --commit yes":         "--commit must be on or off",
		"--path fast --rescale 3to2":       "needs a checkpointing cell of a Go path with failures >= 1",
		"--path fast --rescale 3":          "not <from>to<to>",
		"--path fast --checkpoint-interval 1s --failures 1 --rescale 3to9": "at most one subtask per partition",
		"--path fast --checkpoint-interval 1s --failures 1 --subtasks 2":   "--subtasks is a rescale cell's reader's",
		"--path java --pause 1s":                "only a plain bounded or live cell of a Go path pauses partitions",
		"--path fast --wake 1s --case appended": "only a plain bounded or live cell of a Go path wakes its reader",
		"--role writer":                         "unknown role",
		"--role reader":                         "needs --ckpt-dir",
		"--path java --checkpoint-interval 1s":  "java cannot checkpoint",
		"--nosuchflag 1":                        "flag provided but not defined",
		"--rate 1000 --linger 1ms":              "go with --mode live",
		"--mode live --rate 1000":               "go with --mode live, and it needs both",
		"--mode live --rate 1000 --linger 1ms --path rowwise --live-duration 1ms --records 1":                                        "path=rowwise cannot read live: a row path has no linger rule",
		"--mode live --rate 1000 --linger 1ms --path java-perf --cluster kafka --live-duration 1ms --records 1":                      "path=java-perf cannot read live: Kafka's ConsumerPerformance",
		"--mode maxrate --linger 1ms --path java --live-duration 1s --maxrate-from 10 --maxrate-to 20 --maxrate-p99 1s --records 20": "path=java cannot read live: a max-rate search runs its trials through a Go reader only",
		"--mode live --rate 1000 --linger 1ms --live-duration 1s":                                                                    "writes 1000 records, not --records 1",
		"--mode live --rate 1000 --linger 1ms --records 1":                                                                           "needs --live-duration > 0",
		"--mode live --rate 1000 --linger 1ms --live-duration 1ms --records 1 --txn aborts":                                          "clean topic",
		"--mode live --rate 1000 --linger 1ms --live-duration 1ms --records 1 --role producer":                                       "--t0 is the producer's",
		"--live-duration 1s":                      "are for mode=live cells",
		"--mode maxrate --rate 1000 --linger 1ms": "needs --linger and no --rate",
		"--mode maxrate --linger 1ms --live-duration 1s --maxrate-from 10 --maxrate-to 10 --records 10":                  "1 <= --maxrate-from < --maxrate-to",
		"--mode maxrate --linger 1ms --live-duration 1s --maxrate-from 10 --maxrate-to 20 --records 20":                  "needs a latency budget",
		"--mode maxrate --linger 1ms --live-duration 1s --maxrate-from 10 --maxrate-to 20 --maxrate-p99 1s --records 10": "writes 20 records, not --records 1",
		"--maxrate-p99 1s": "are for mode=maxrate cells",
		"--mode live --rate 1000 --linger 1ms --live-duration 1s --records 1000 --path fast --drain ahead": "drain=ahead runs on bounded reads",
		"--path shallow --drain ahead": "drain=ahead is the fast path's crossing: path=shallow polls",
	} {
		_, err := rungargs.Parse(append(strings.Fields(args), base...), io.Discard)
		// No package prefix: the CLI adds its own ("fplab rung: ").
		if err == nil || !strings.Contains(err.Error(), want) || strings.HasPrefix(err.Error(), "rungargs: ") {
			t.Errorf("%s: error %v, want %q without a package prefix", args, err, want)
		}
	}
	if _, err := rungargs.Parse([]string{"--bootstrap", "a:1", "extra"}, io.Discard); err == nil || !strings.Contains(err.Error(), "unexpected argument") {
		t.Errorf("extra argument: %v", err)
	}
	var usage strings.Builder
	if _, err := rungargs.Parse([]string{"-h"}, &usage); err == nil || !strings.Contains(usage.String(), "-checkpoint-interval") {
		t.Errorf("-h: %v, usage %q", err, usage.String())
	}
}

package jvmref

import (
	"strings"
	"testing"
	"time"
)

func TestArgv(t *testing.T) {
	base := Opts{Program: Steady, Bootstrap: []string{"127.0.0.1:1", "127.0.0.1:2"}, Topic: "t",
		Partitions: 6, Records: 1000, CRC: true, Timeout: 90 * time.Second, WarmupRecords: 1000}
	argv, err := Argv("/j.jar", base)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(argv, " ")
	want := "-Xms512M -Xmx512M -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent " +
		"-Djava.awt.headless=true -Dfile.encoding=UTF-8 -jar /j.jar steady --bootstrap 127.0.0.1:1,127.0.0.1:2 --topic t " +
		"--partitions 6 --records 1000 --check-crcs true --timeout-ms 90000 --warmup-records 1000"
	if got != want {
		t.Errorf("steady argv\n got %s\nwant %s", got, want)
	}
	fl := base
	fl.Program, fl.WarmupRecords, fl.Format, fl.Parallelism, fl.MaxPollRecords, fl.ConsumerConfig = Flink, 0, "json", 2, 500, "/c.properties"
	argv, err = Argv("/j.jar", fl)
	if err != nil {
		t.Fatal(err)
	}
	got = strings.Join(argv, " ")
	if !strings.HasPrefix(got, "-Xms1G -Xmx1G -XX:+UseG1GC") ||
		!strings.HasSuffix(got, " flink --bootstrap 127.0.0.1:1,127.0.0.1:2 --topic t --partitions 6 --records 1000 --check-crcs true "+
			"--timeout-ms 90000 --max-poll-records 500 --consumer-config /c.properties --format json --warmup-runs 0 --parallelism 2") {
		t.Errorf("flink argv: %s", got)
	}
	live := base
	live.WarmupRecords, live.Live = 0, true
	if argv, err = Argv("/j.jar", live); err != nil || !strings.HasSuffix(strings.Join(argv, " "), " --timeout-ms 90000 --live true --warmup-records 0") {
		t.Errorf("live steady argv: %v, %v", argv, err)
	}
	for name, mod := range map[string]func(*Opts){
		"program":       func(o *Opts) { o.Program = "spark" },
		"no topic":      func(o *Opts) { o.Topic = "" },
		"no bootstrap":  func(o *Opts) { o.Bootstrap = nil },
		"partitions":    func(o *Opts) { o.Partitions = 0 },
		"timeout":       func(o *Opts) { o.Timeout = 0 },
		"steady format": func(o *Opts) { o.Format = "json" },
		"flink parquet": func(o *Opts) { o.Program, o.WarmupRecords, o.Format = Flink, 0, "parquet" },
		"steady ckpt":   func(o *Opts) { o.Checkpoint = time.Second },
		"flink ckpt 1us": func(o *Opts) {
			o.Program, o.WarmupRecords, o.Format, o.Checkpoint = Flink, 0, "json", time.Microsecond
		},
		"flink warm recs": func(o *Opts) { o.Program, o.Format = Flink, "raw" },
		"negative":        func(o *Opts) { o.MaxPollRecords = -1 },
		"live warm-up":    func(o *Opts) { o.Live = true },
		"live flink runs": func(o *Opts) { o.Program, o.WarmupRecords, o.Format, o.Live, o.WarmupRuns = Flink, 0, "raw", true, 1 },
		"live no records": func(o *Opts) { o.WarmupRecords, o.Records, o.Live = 0, 0, true },
	} {
		o := base
		mod(&o)
		if _, err := Argv("/j.jar", o); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}

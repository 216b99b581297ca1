// Package jvmref measures the cells of the JVM reference paths, the
// consumers the lab's Go paths are held up against: path=java
// (fplab.SteadyConsumer, kafka-clients), path=flink (fplab.FlinkBounded,
// Flink's KafkaSource in a bounded job, an unbounded one live) and
// path=java-perf (Kafka's own ConsumerPerformance, from the Kafka
// distribution, called in-process by the jar's fplab.PerfWrap). Each JVM
// reports its own memory, split where its client or job opens (Mem), as
// a Go cell's process does.
//
// Where it sits in the flow:
//
//	spec -> cells -> [child process: rung -> jvmref -> a JVM] -> result -> journal -> tables/plots/report
//
// It plugs into package ladder/rung: each path's file registers a
// rung.Runner from init (steady.go, flink.go, perf.go), so a binary that
// runs these cells links the package for its side effect
// (`import _ ".../ladder/rung/jvmref"` in cmd/fplab). A cell is checked as
// every counting reference's is (rung.CheckCountedTopic: broker count, a
// topic holding exactly the corpus, the stored codec), the program runs in
// a process group of its own that nothing outlives, its count must equal
// the corpus, and the result is printed with rung.WriteResult.
//
// A live cell (mode=live) of java or flink reads as a Go path's does
// (live.go): the rung makes a fresh topic (rung.OpenLiveRead), runs the
// program on it with --live, starts the producer when the program prints
// FPLAB-READY, feeds each hand-over the program reports (FPLAB-R lines:
// a range of one partition's offsets and when it was handed over) to the
// Go paths' latency and lag recorder as the lines arrive, failing on the
// first missing or repeated offset, and at the end checks each
// partition's count and chained checksum (FPLAB-LIVE) against the corpus.
// The protocol is in liveproto.go; docs/metrics.md says where each
// program takes its hand-over times. java-perf reads bounded only, and no
// JVM path runs a maxrate search (cell.WhyNotLive).
//
// The API beyond the registration runs the reference jar directly (the
// side-by-side measurements of docs/kafka.md): Argv renders a program's
// command line from Opts, Run runs it and returns its Result, RunLive runs
// it live with a LiveHandler, and ParseResult, ParseCkpt, ParseRange and
// ParseLive read the program's FPLAB, FPLAB-CKPT, FPLAB-R and FPLAB-LIVE
// lines strictly.
package jvmref

// Package jvmref measures the cells of the JVM reference paths, the
// consumers the lab's Go paths are held up against: path=java
// (fplab.SteadyConsumer, kafka-clients), path=flink (fplab.FlinkBounded,
// Flink's KafkaSource in a bounded job) and path=java-perf (Kafka's own
// ConsumerPerformance, from the Kafka distribution).
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
// The API beyond the registration runs the reference jar directly (the
// side-by-side measurements of docs/kafka.md): Argv renders a program's
// command line from Opts, Run runs it and returns its Result, and
// ParseResult and ParseCkpt read the program's FPLAB and FPLAB-CKPT lines
// strictly.
package jvmref

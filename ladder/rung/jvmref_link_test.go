package rung_test

// The JVM reference paths register from package jvmref, which imports
// rung, so they cannot be linked by rung itself: this import puts them in
// the tests' binary, where Run dispatches path=java, java-perf and flink
// as fplab does (TestKafkaRungOneBroker, TestEveryPathHasARunner).
import _ "github.com/fastpathlab/fplab/ladder/rung/jvmref"

// Package rungargs is the one encoding of a rung child's command line: the
// Cell a child measures (a cell.Cell plus how to reach its corpus)
// rendered as `fplab rung` flags by Cell.Args and read back by Parse, the
// pipe that carries secret cluster props on an inherited descriptor, and the
// wrapper (qemu under emulation) a child's argv may be run through.
//
// Where it sits in the flow:
//
//	spec -> cells -> [child process argv] -> result -> journal -> tables/plots/report
//
// The ladder (parent) and a checkpointing rung's supervisor start children
// with Cell.Args; `fplab rung` and its reader processes decode them with
// Parse. It is pure Go and links no librdkafka, so the ladder builds and
// tests without cgo; package ladder/rung, which runs a cell, does.
package rungargs

// Package rungargs is the one encoding of a rung child's command line.
//
// Where it sits in the flow:
//
//	spec -> cells -> [child process argv] -> result -> journal -> tables/plots/report
//
// The ladder (parent) and a checkpointing rung's supervisor start children
// with Cell.Args; `fplab rung` and its reader processes decode them with
// Parse. It is pure Go and links no librdkafka, so the ladder builds and
// tests without cgo; package ladder/rung, which runs a cell, does.
//
// The API:
//   - Cell: the cell a child measures (a cell.Cell plus how to reach its
//     corpus and what to record); Cell.Args renders it as `fplab rung`
//     flags, Cell.Validate checks the combinations a child refuses.
//   - Parse (Decode without the validation, for fake children in tests):
//     the inverse of Cell.Args; a bad flag is returned, never printed.
//   - Cell.SecretFiles, SecretPipe and SecretsFD: the pipe that carries
//     secret cluster props on an inherited descriptor instead of argv.
//   - WrapArgv (WrapperEnv): the wrapper (qemu under emulation) a child's
//     argv is run through.
//
// Errors carry no package prefix; the CLI adds its own.
package rungargs

// Package golden compares what a test produced with a golden file under
// the package's testdata directory: the lab's one -update flag, one way to
// name golden files and one record of a mismatch. Only tests import it.
//
// A golden file is testdata/<name>, where name says what the file holds
// (tables.txt.golden, report.golden.md, golden/overview.png,
// help.stderr). When the output differs, the test fails and the output is
// kept beside the golden file as testdata/<name>.got, to diff or view;
// `go test -update` rewrites the golden files instead (*.got is in
// .gitignore). Check compares bytes; CheckWith takes a Compare for output
// that may differ within a tolerance, such as rendered images.
//
// The flag exists only in test binaries that import this package, so give
// -update to the packages with golden files (go test ./plots ./cmd/fplab
// -update), not to ./... .
//
// Paths are resolved against the directory the test binary started in (the
// package directory under go test), so a test that changes directory
// (t.Chdir, to get stable relative paths in its output) still finds its
// golden files.
package golden

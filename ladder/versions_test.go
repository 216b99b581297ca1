package ladder

import (
	"testing"

	"github.com/fastpathlab/fplab/results"
)

func TestNoteVersions(t *testing.T) {
	r := &runner{manifest: results.Manifest{AllocVersions: map[string]string{}}}
	r.noteVersions("go", results.Row{OK: false, Config: map[string]string{"client": "librdkafka 9"}})
	r.noteVersions("go", results.Row{OK: true, Config: map[string]string{"client": "franz-go", "alloc-version": "glibc 2.36"}})
	r.noteVersions("mimalloc2", results.Row{OK: true, Config: map[string]string{
		"client": "librdkafka 2.11.1", "alloc-version": "mimalloc 2.1.7", "build-flags": "-buildmode=exe"}})
	r.noteVersions("mimalloc2", results.Row{OK: true, Config: map[string]string{"client": "librdkafka 3", "alloc-version": "other"}})
	m := r.manifest
	if m.Librdkafka != "2.11.1" || m.AllocVersions["go"] != "glibc 2.36" || m.AllocVersions["mimalloc2"] != "mimalloc 2.1.7" || m.BuildFlags != "-buildmode=exe" {
		t.Errorf("%+v", m)
	}
}

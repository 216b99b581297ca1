package results

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/fastpathlab/fplab/internal/atomicfile"
)

// Manifest describes one run: where and with what it measured, and the
// spec it ran. The ladder writes it at the start and rewrites it at the end
// (End, MeasuredFraction).
type Manifest struct {
	Host      Fingerprint `json:"host"`
	GoVersion string      `json:"go_version"`
	// Librdkafka is the librdkafka version string linked into the children.
	Librdkafka string `json:"librdkafka"`
	// AllocVersions maps an allocator variant (go, mimalloc2, ...) to the
	// version in force in its binary.
	AllocVersions map[string]string `json:"alloc_versions,omitempty"`
	GitCommit     string            `json:"git_commit"`
	GitDirty      bool              `json:"git_dirty"`
	// Spec is the ladder's spec, as the ladder serialised it.
	Spec  json.RawMessage `json:"spec,omitempty"`
	Start time.Time       `json:"start"`
	End   time.Time       `json:"end,omitzero"`
	// MeasuredFraction is the share of the run's wall time spent inside
	// measured windows.
	MeasuredFraction float64 `json:"measured_fraction"`
	// Emulated is set when the children ran under an emulator (qemu):
	// their timings mean nothing.
	Emulated   bool   `json:"emulated"`
	BuildFlags string `json:"build_flags"`
	// Format is the run directory's layout version (RunFormat when the
	// ladder wrote it); 0, in runs from before the field, reads as 1.
	Format int `json:"format,omitempty"`
}

// RunFormat is the layout version of the run directories this fplab
// writes: the manifest's fields, the journal's rows and what they mean.
// A reader that keeps runs (results/history) refuses a newer one rather
// than misread it. Raise it when a change makes an older reader wrong.
const RunFormat = 1

// RunFormatOf is m's layout version: m.Format, or 1 for a run written
// before the field existed.
func RunFormatOf(m Manifest) int { return max(m.Format, 1) }

// WriteManifest writes m to dir/manifest.json (via a temporary file and a
// rename, so a reader never sees half a manifest). Secret client properties
// in the spec (cell.IsSecretKey) are written as "REDACTED": the
// manifest, and the report rendered from it, never hold a secret.
func WriteManifest(dir string, m Manifest) error {
	path := filepath.Join(dir, ManifestFile)
	spec, err := redactSpec(m.Spec)
	if err != nil {
		return err
	}
	m.Spec = spec
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	data = append(data, '\n')
	if err := atomicfile.Write(path, data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// ReadManifest reads dir/manifest.json; a failure is a *FileError naming
// the file.
func ReadManifest(dir string) (Manifest, error) {
	path := filepath.Join(dir, ManifestFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return Manifest{}, fileError("read manifest", path, 0, err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return Manifest{}, fileError("read manifest", path, 0, err)
	}
	return m, nil
}

// SpecBody is the spec itself of a manifest's Spec: the ladder stores
// {"spec": {...}, "cells": [...], ...}, so a spec's fields (axes,
// records, headline) are one level down; a bare spec (a hand-made
// manifest, tests' fixtures) is returned as it is.
func SpecBody(raw json.RawMessage) json.RawMessage {
	var stored struct {
		Spec json.RawMessage `json:"spec"`
	}
	if len(raw) > 0 && json.Unmarshal(raw, &stored) == nil && len(stored.Spec) > 0 && stored.Spec[0] == '{' {
		return stored.Spec
	}
	return raw
}

// SpecName is the name of the spec a run ran ("" when the manifest holds
// none).
func SpecName(m Manifest) string {
	var s struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(SpecBody(m.Spec), &s) != nil {
		return ""
	}
	return s.Name
}

package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// ArchKey is the cell-name part Merge adds to every row, so benchproc
// projects the host architecture like any other axis (a table "rec/s by
// arch" sets an x86 and an ARM host side by side).
const ArchKey = "arch"

// RecordsKey is the cell-name part MergeBy adds when it merges runs of one
// spec at several corpus lengths: each run's spec records, a number the
// tables and figures order as any numeric axis (a table "path-peak-RSS-MB
// by records" sets a path's memory at 4M, 16M and 64M records side by
// side). A cell name never holds it otherwise: a run's records is its
// spec's, the same for every cell.
const RecordsKey = "records"

// MergeKeys lists the keys runs can be merged by, the default first.
func MergeKeys() []string { return []string{ArchKey, RecordsKey} }

// recordsFree are the spec fields runs merged by records may differ in:
// the one merged on, how many repetitions measured it and how many
// warm-up rounds preceded them (a long topic's run may skip its warm-up,
// as memory-kafka-64m does), the spec's name (memory-kafka-4m, -16m),
// which says no more than records does, and its headline, the question
// the report opens with, which changes no cell's figures.
var recordsFree = []string{"name", RecordsKey, "repetitions", "warmup", "headline"}

// emulatedSuffix marks the arch value of a run made under emulation, so
// every table column and row label that shows it says so.
const emulatedSuffix = "-emulated"

// Source is one run that went into a merge, as recorded in the merged
// directory's sources.json.
type Source struct {
	// Label is the arch= value its rows carry (e.g. "amd64",
	// "arm64-emulated"), or in a merge by records their records= value
	// (e.g. "4000000").
	Label string `json:"label"`
	// Key is the cell-name key Label is a value of: "" for ArchKey (so an
	// arch merge's sources.json is what it was before there were keys),
	// else RecordsKey. MergeKey reads it.
	Key        string      `json:"key,omitempty"`
	Dir        string      `json:"dir"`
	Host       Fingerprint `json:"host"`
	Emulated   bool        `json:"emulated"`
	GoVersion  string      `json:"go_version"`
	Librdkafka string      `json:"librdkafka"`
	GitCommit  string      `json:"git_commit"`
	GitDirty   bool        `json:"git_dirty"`
	Start      time.Time   `json:"start"`
	End        time.Time   `json:"end,omitzero"`
	// Rows and Failed count the run's repetitions and the failed ones
	// among them, as Index counts rows.
	Rows   int `json:"rows"`
	Failed int `json:"failed"`
}

// MergeKey is the cell-name key the source's Label is a value of.
func (s Source) MergeKey() string {
	if s.Key == "" {
		return ArchKey
	}
	return s.Key
}

// Merged is the result of Merge: one run whose rows carry arch=<label>
// (or records=<label>), and the runs it came from.
type Merged struct {
	Run     Run
	Sources []Source
}

// ArchLabel is the arch= value of a run's rows: the host's architecture,
// with "-emulated" when the children ran under an emulator.
func ArchLabel(m Manifest) string {
	a := m.Host.Arch
	if strings.TrimSpace(a) == "" {
		a = Unknown
	}
	if m.Emulated {
		a += emulatedSuffix
	}
	return a
}

// Merge combines runs from several hosts into one: every row gets an
// arch=<ArchLabel> part (first in its cell name) and the manifest becomes
// a summary of all of them. It refuses, naming the run directory:
//
//   - fewer than one run, a run already merged (its cells have arch= or
//     records=);
//   - a run that is incomplete (CheckComplete) — unless force;
//   - runs whose specs differ — unless force;
//   - two runs with the same arch label — unless force, which then labels
//     the later ones "<arch>-run<N>" (N its position, from 1).
//
// Nothing is written; WriteMerged writes the result.
func Merge(runs []Run, force bool) (Merged, error) { return MergeBy(runs, ArchKey, force) }

// MergeBy is Merge keyed by key, one of MergeKeys. By ArchKey it is
// Merge. By RecordsKey it combines runs of one spec at several corpus
// lengths on one host: every row gets a records=<N> part (N its run's spec
// records), the runs ordered by N, so the tables and figures set a path's
// rec/s and memory at each length side by side. Besides Merge's refusals
// (a merged run, an incomplete one unless force) it refuses:
//
//   - a run whose spec has no records;
//   - runs whose specs differ in more than records, repetitions and name
//     — unless force;
//   - runs of different hosts (any field of the fingerprint, or emulation)
//     — unless force;
//   - two runs with the same records, even with force: they would be one
//     value of the axis twice.
func MergeBy(runs []Run, key string, force bool) (Merged, error) {
	if !slices.Contains(MergeKeys(), key) {
		return Merged{}, fmt.Errorf("merge: cannot merge by %q (want %s)", key, strings.Join(MergeKeys(), " or "))
	}
	if len(runs) == 0 {
		return Merged{}, errors.New("merge: no runs given")
	}
	for _, r := range runs {
		for _, row := range r.Rows {
			for _, k := range MergeKeys() {
				if _, ok := cellPart(row.Cell, k); ok {
					return Merged{}, fmt.Errorf("merge: %s: cell %s already has an %s= part (a merged run cannot be merged again)", r.Dir, row.Cell, k)
				}
			}
		}
		if !force {
			if err := CheckComplete(r); err != nil {
				return Merged{}, err
			}
		}
	}
	var labels []string
	var err error
	if key == RecordsKey {
		runs, labels, err = recordsLabels(runs, force)
	} else {
		if !force {
			err = sameSpec(runs)
		}
		if err == nil {
			labels, err = mergeLabels(runs, force)
		}
	}
	if err != nil {
		return Merged{}, err
	}
	var out Merged
	srcKey := key
	if key == ArchKey {
		srcKey = ""
	}
	for i, r := range runs {
		src := Source{Label: labels[i], Key: srcKey, Dir: r.Dir, Host: r.Manifest.Host, Emulated: r.Manifest.Emulated,
			GoVersion: r.Manifest.GoVersion, Librdkafka: r.Manifest.Librdkafka, GitCommit: r.Manifest.GitCommit,
			GitDirty: r.Manifest.GitDirty, Start: r.Manifest.Start, End: r.Manifest.End}
		for _, row := range r.Rows {
			row.Cell = key + "=" + labels[i] + "/" + row.Cell
			out.Run.Rows = append(out.Run.Rows, row)
		}
		for _, row := range NewIndex(r.Rows).Rows() {
			src.Rows++
			if !row.OK {
				src.Failed++
			}
		}
		out.Sources = append(out.Sources, src)
	}
	out.Run.Manifest = mergedManifest(runs, labels, key)
	return out, nil
}

// mergeLabels picks each run's arch label and resolves duplicates.
func mergeLabels(runs []Run, force bool) ([]string, error) {
	labels := make([]string, len(runs))
	first := map[string]int{}
	for i, r := range runs {
		l := ArchLabel(r.Manifest)
		if j, dup := first[l]; dup {
			if !force {
				return nil, fmt.Errorf("merge: %s and %s are both %s=%s; merging keys rows by architecture, so give one run per arch (or force to label them %s-run<N>)",
					runs[j].Dir, r.Dir, ArchKey, l, l)
			}
			l = fmt.Sprintf("%s-run%d", l, i+1)
		} else {
			first[l] = i
		}
		labels[i] = l
	}
	return labels, nil
}

// sameSpec compares the runs' specs (the ladder's "spec" object when the
// manifest stores one, which leaves out per-host settings such as CPU
// pinning; else the whole stored spec).
func sameSpec(runs []Run) error {
	base, err := specKey(runs[0])
	if err != nil {
		return err
	}
	for _, r := range runs[1:] {
		k, err := specKey(r)
		if err != nil {
			return err
		}
		if k != base {
			return fmt.Errorf("merge: %s and %s ran different specs (%s); force to merge anyway",
				runs[0].Dir, r.Dir, specDiff(runs[0].Manifest.Spec, r.Manifest.Spec))
		}
	}
	return nil
}

// specKey is the run's spec in a canonical form, the fields in skip left
// out of it.
func specKey(r Run, skip ...string) (string, error) {
	raw := bytes.TrimSpace(r.Manifest.Spec)
	if len(raw) == 0 {
		return "", nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", fmt.Errorf("merge: %s: spec in %s: %w", r.Dir, ManifestFile, err)
	}
	if obj, ok := v.(map[string]any); ok {
		if inner, ok := obj["spec"]; ok {
			v = inner
		}
	}
	if obj, ok := v.(map[string]any); ok {
		for _, k := range skip {
			delete(obj, k)
		}
	}
	b, err := json.Marshal(v) // map keys come out sorted: a canonical form
	if err != nil {
		return "", fmt.Errorf("merge: %s: spec: %w", r.Dir, err)
	}
	return string(b), nil
}

// specDiff names the first top-level spec fields that differ, leaving out
// those in skip.
func specDiff(a, b json.RawMessage, skip ...string) string {
	fa, fb := specFields(a), specFields(b)
	for _, k := range skip {
		delete(fa, k)
		delete(fb, k)
	}
	keys := map[string]bool{}
	for k := range fa {
		keys[k] = true
	}
	for k := range fb {
		keys[k] = true
	}
	var diff []string
	for k := range keys {
		if fa[k] != fb[k] {
			diff = append(diff, k)
		}
	}
	sort.Strings(diff)
	if len(diff) == 0 {
		return "spec layout differs"
	}
	if len(diff) > 4 {
		diff = append(diff[:4], "...")
	}
	return "fields " + strings.Join(diff, ", ")
}

func specFields(raw json.RawMessage) map[string]string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(SpecBody(raw), &obj) != nil {
		return nil
	}
	out := make(map[string]string, len(obj))
	for k, v := range obj {
		var x any
		if json.Unmarshal(v, &x) == nil {
			c, _ := json.Marshal(x)
			out[k] = string(c)
		}
	}
	return out
}

// mergedManifest summarises the runs: host fields joined with " + " in run
// order (arch: the labels when merged by arch, else the hosts' distinct
// arches), the first run's spec, the earliest start and latest end, the
// wall-time-weighted measured fraction, and Emulated if any run was.
func mergedManifest(runs []Run, labels []string, key string) Manifest {
	var m Manifest
	join := func(get func(Manifest) string) string {
		var parts []string
		for _, r := range runs {
			parts = append(parts, get(r.Manifest))
		}
		return joinDistinct(parts)
	}
	arch := strings.Join(labels, " + ")
	if key != ArchKey {
		arch = join(func(x Manifest) string { return x.Host.Arch })
	}
	m.Host = Fingerprint{
		Hostname: join(func(x Manifest) string { return x.Host.Hostname }),
		CPUModel: join(func(x Manifest) string { return x.Host.CPUModel }),
		Arch:     arch,
		Kernel:   join(func(x Manifest) string { return x.Host.Kernel }),
		Governor: join(func(x Manifest) string { return x.Host.Governor }),
		SMT:      join(func(x Manifest) string { return x.Host.SMT }),
		THP:      join(func(x Manifest) string { return x.Host.THP }),
	}
	m.GoVersion = join(func(x Manifest) string { return x.GoVersion })
	m.Librdkafka = join(func(x Manifest) string { return x.Librdkafka })
	m.GitCommit = join(func(x Manifest) string { return x.GitCommit })
	m.BuildFlags = join(func(x Manifest) string { return x.BuildFlags })
	m.Spec = runs[0].Manifest.Spec
	m.AllocVersions = map[string]string{}
	versions := map[string][]string{}
	var wall, measured float64
	for _, r := range runs {
		x := r.Manifest
		m.GitDirty = m.GitDirty || x.GitDirty
		m.Emulated = m.Emulated || x.Emulated
		if !x.Start.IsZero() && (m.Start.IsZero() || x.Start.Before(m.Start)) {
			m.Start = x.Start
		}
		if x.End.After(m.End) {
			m.End = x.End
		}
		if w := x.End.Sub(x.Start).Seconds(); !x.Start.IsZero() && w > 0 {
			wall += w
			measured += w * x.MeasuredFraction
		}
		for k, v := range x.AllocVersions {
			versions[k] = append(versions[k], v)
		}
	}
	for k, vs := range versions {
		m.AllocVersions[k] = joinDistinct(vs)
	}
	if wall > 0 {
		m.MeasuredFraction = measured / wall
	}
	return m
}

// joinDistinct joins the distinct non-empty values in first-seen order.
func joinDistinct(vs []string) string {
	seen := map[string]bool{}
	var out []string
	for _, v := range vs {
		if strings.TrimSpace(v) == "" || seen[v] {
			continue
		}
		seen[v] = true
		out = append(out, v)
	}
	return strings.Join(out, " + ")
}

// cellPart returns the value of key in a key=value cell name.
func cellPart(cell, key string) (string, bool) {
	for _, p := range strings.Split(cell, "/") {
		if k, v, ok := strings.Cut(p, "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}

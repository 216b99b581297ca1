package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fastpathlab/fplab/results"
)

// MergeReport merges the runs in runDirs (typically one from an x86 and one
// from an ARM host; see results.Merge) into the new directory outDir and
// writes its report, returning the report's path. outDir holds what a run
// directory holds — manifest.json, journal.jsonl with arch= in every cell
// name, raw.txt, tables/, plots/, report.md — plus sources.json naming the
// merged runs.
//
// Every input is read and validated first (a missing manifest, a corrupt
// or torn journal, missing repetitions, different specs: a one-line error
// naming the file or directory; force lets different specs, incomplete runs
// and duplicate architectures through, never corrupt files). The output is
// assembled in a staging directory beside outDir and renamed into place, so
// outDir either holds a whole merge or does not exist. outDir must not exist.
func MergeReport(outDir string, runDirs []string, force bool, opt Options) (string, error) {
	return MergeReportBy(outDir, runDirs, results.ArchKey, force, opt)
}

// MergeReportBy is MergeReport keyed by key (results.MergeBy): by
// results.RecordsKey it merges runs of one spec at several corpus lengths
// on one host (memory-kafka-4m, -16m, -64m), every cell name carrying
// records=, so the report's tables and figures set rec/s and memory
// against records. force lets different specs, hosts and incomplete runs
// through, never two runs of the same records.
func MergeReportBy(outDir string, runDirs []string, key string, force bool, opt Options) (string, error) {
	if len(runDirs) == 0 {
		return "", errors.New("merge: no run directories given")
	}
	if outDir == "" {
		return "", errors.New("merge: no output directory given")
	}
	if _, err := os.Lstat(outDir); err == nil {
		return "", fmt.Errorf("merge: output directory %s exists; give a new one", outDir)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("merge: %w", err)
	}
	runs := make([]results.Run, 0, len(runDirs))
	for _, d := range runDirs {
		r, err := results.ReadRun(d)
		if err != nil {
			return "", fmt.Errorf("merge: %w", err)
		}
		runs = append(runs, r)
	}
	merged, err := results.MergeBy(runs, key, force)
	if err != nil {
		return "", err
	}
	parent := filepath.Dir(outDir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("merge: %w", err)
	}
	stage, err := os.MkdirTemp(parent, "."+filepath.Base(outDir)+".merging-")
	if err != nil {
		return "", fmt.Errorf("merge: %w", err)
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(stage)
		}
	}()
	order := sourcesOrder(merged.Sources, specOrder(merged.Run.Manifest.Spec))
	if err := results.WriteMergedTo(stage, merged, results.TableOptions{Order: order}); err != nil {
		return "", fmt.Errorf("merge: %w", err)
	}
	run, err := results.ReadRun(stage)
	if err != nil {
		return "", fmt.Errorf("merge: read back: %w", err)
	}
	o := opt
	o.Name = filepath.Base(outDir)
	md, err := Render(run, o)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(stage, FileName), []byte(md), 0o644); err != nil {
		return "", fmt.Errorf("merge: %w", err)
	}
	if err := os.Rename(stage, outDir); err != nil {
		return "", fmt.Errorf("merge: %w", err)
	}
	done = true
	return filepath.Join(outDir, FileName), nil
}

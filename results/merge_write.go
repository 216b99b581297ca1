package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fastpathlab/fplab/internal/atomicfile"
)

// SourcesFile lists, in a merged run directory, the runs it was merged
// from (Source records).
const SourcesFile = "sources.json"

// WriteMergedTo writes a merged run into dir, an existing empty directory:
// manifest.json, journal.jsonl (the arch-labelled rows), sources.json,
// raw.txt and tables/. Callers that must not leave a half-merged directory
// write into a staging directory and rename it (report.MergeReport does).
func WriteMergedTo(dir string, m Merged, opts TableOptions) error {
	if err := WriteManifest(dir, m.Run.Manifest); err != nil {
		return err
	}
	j, err := OpenJournal(filepath.Join(dir, JournalFile))
	if err != nil {
		return err
	}
	for _, r := range m.Run.Rows {
		if err := j.Append(r); err != nil {
			j.Close()
			return err
		}
	}
	if err := j.Close(); err != nil {
		return err
	}
	src, err := json.MarshalIndent(m.Sources, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", SourcesFile, err)
	}
	if err := atomicfile.Write(filepath.Join(dir, SourcesFile), append(src, '\n')); err != nil {
		return fmt.Errorf("write %s: %w", SourcesFile, err)
	}
	var raw bytes.Buffer
	if err := WriteRaw(&raw, m.Run.Rows); err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(dir, RawFile), raw.Bytes()); err != nil {
		return fmt.Errorf("write %s: %w", RawFile, err)
	}
	return writeTables(dir, NewIndex(m.Run.Rows), opts)
}

// ReadSources reads dir/sources.json: the runs a merged run came from. A
// run that is not merged has no such file: nil and no error.
func ReadSources(dir string) ([]Source, error) {
	path := filepath.Join(dir, SourcesFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fileError("read sources", path, 0, err)
	}
	var src []Source
	if err := json.Unmarshal(data, &src); err != nil {
		return nil, fileError("read sources", path, 0, err)
	}
	return src, nil
}

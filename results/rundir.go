package results

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// File and folder names inside a run directory.
const (
	ManifestFile = "manifest.json"
	JournalFile  = "journal.jsonl"
	RawFile      = "raw.txt"
	TablesDir    = "tables"
)

// DefaultRoot is where the CLI keeps runs, relative to the repository root.
const DefaultRoot = "results/runs"

// DefaultHistory is the history store a checkout keeps its runs in when
// none is named (results/history, beside DefaultRoot and ignored by git
// like it): named here so that fplab, which must not link the store,
// and fplab-history agree on it.
const DefaultHistory = "results/history.sqlite"

// StampLayout is the UTC time stamp that starts a run directory's name.
const StampLayout = "20060102T150405Z"

// NewRunDir creates root/<UTC stamp>-<host>/ with its tables/ folder and
// returns its path. It proves root writable by creating the directory and a
// probe file in it. If a run with the same stamp and host exists already, a
// numeric suffix (-2, -3, ...) keeps both.
func NewRunDir(root, host string, now time.Time) (string, error) {
	if root == "" {
		return "", errors.New("run root is empty")
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", fmt.Errorf("run root %s is not writable: %w", root, err)
	}
	base := now.UTC().Format(StampLayout) + "-" + sanitizeHost(host)
	var dir string
	for i := 1; ; i++ {
		name := base
		if i > 1 {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		dir = filepath.Join(root, name)
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			break
		}
		if errors.Is(err, fs.ErrExist) && i < 100 {
			continue
		}
		return "", fmt.Errorf("run root %s is not writable: %w", root, err)
	}
	probe := filepath.Join(dir, ".probe")
	if err := os.WriteFile(probe, []byte("probe\n"), 0o644); err != nil {
		os.Remove(dir)
		return "", fmt.Errorf("run directory %s is not writable: %w", dir, err)
	}
	if err := os.Remove(probe); err != nil {
		return "", fmt.Errorf("run directory %s: %w", dir, err)
	}
	if err := os.Mkdir(filepath.Join(dir, TablesDir), 0o755); err != nil {
		return "", fmt.Errorf("run directory %s: %w", dir, err)
	}
	return dir, nil
}

// sanitizeHost keeps a host name usable as one path element.
func sanitizeHost(host string) string {
	s := strings.Trim(FileSafe(host), ".")
	if s == "" {
		return "unknown"
	}
	return s
}

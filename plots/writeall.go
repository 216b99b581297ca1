package plots

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Dir is the folder inside a run directory that WriteAll fills.
const Dir = "plots"

// SkippedFile lists, one "name: reason" line each, the figures WriteAll did
// not draw for lack of data.
const SkippedFile = "skipped.txt"

// WriteAll writes each planned figure (Plan) with data into <dir>/plots/
// in every format of opt (png and svg by default). A figure without data
// is not drawn; its name and reason go to plots/skipped.txt. It returns
// the files written, in plan order.
func WriteAll(dir string, figs []Figure, opt Options) ([]string, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	out := filepath.Join(dir, Dir)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("write figures: %w", err)
	}
	var files []string
	var skipped strings.Builder
	for _, fig := range figs {
		if fig.Skip != "" {
			fmt.Fprintf(&skipped, "%s: %s\n", fig.Name, fig.Skip)
			continue
		}
		written, err := writeFormats(out, fig, opt.Formats, "write figures")
		files = append(files, written...)
		if err != nil {
			return files, err
		}
	}
	list := filepath.Join(out, SkippedFile)
	if skipped.Len() == 0 {
		if err := os.Remove(list); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return files, fmt.Errorf("write figures: %w", err)
		}
		return files, nil
	}
	if err := os.WriteFile(list, []byte(skipped.String()), 0o644); err != nil {
		return files, fmt.Errorf("write figures: %w", err)
	}
	return append(files, list), nil
}

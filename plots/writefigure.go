package plots

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteFigure writes one figure drawn outside Plan (HeadlineFigure) into
// <dir>/plots/ in every format of opt, as WriteAll writes each planned
// one, and returns the files written. It leaves plots/skipped.txt, which
// lists Plan's figures, alone; a skipped figure is an error (Render's).
func WriteFigure(dir string, fig Figure, opt Options) ([]string, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	out := filepath.Join(dir, Dir)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("write figure %s: %w", fig.Name, err)
	}
	return writeFormats(out, fig, opt.Formats, "write figure "+fig.Name)
}

// writeFormats renders fig in each of formats into out as <name>.<format>
// and returns the files written; what starts its write errors.
func writeFormats(out string, fig Figure, formats []string, what string) ([]string, error) {
	var files []string
	for _, format := range formats {
		img, err := Render(fig, format)
		if err != nil {
			return files, err
		}
		name := filepath.Join(out, fig.Name+"."+format)
		if err := os.WriteFile(name, img, 0o644); err != nil {
			return files, fmt.Errorf("%s: %w", what, err)
		}
		files = append(files, name)
	}
	return files, nil
}

package site

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/fastpathlab/fplab/internal/atomicfile"
)

// reportDirs are the parts of a run directory its report links to, copied
// beside the rendered report so every link and figure resolves.
var reportDirs = []string{"plots", "tables"}

var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

var reportTmpl = template.Must(template.New("report").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.ID}}</title>
<link rel="stylesheet" href="../../site.css">
<style>img { max-width: 100%; }</style>
</head>
<body>
<nav><a href="../../index.html">history</a> · <a href="report.md">report.md</a></nav>
{{.Body}}
</body></html>
`))

// writeReport renders run id's report.md, from the first of roots that
// holds the run, into dir/runs/<id>/report.html, with the run's plots and
// tables beside it. A run no root holds (or without a report) has none.
func writeReport(dir, id string, roots []string) (bool, error) {
	var src string
	for _, root := range roots {
		p := filepath.Join(root, id)
		if _, err := os.Stat(filepath.Join(p, "report.md")); err == nil {
			src = p
			break
		}
	}
	if src == "" {
		return false, nil
	}
	md, err := os.ReadFile(filepath.Join(src, "report.md"))
	if err != nil {
		return false, err
	}
	var body bytes.Buffer
	if err := markdown.Convert(md, &body); err != nil {
		return false, fmt.Errorf("%s/report.md: %w", src, err)
	}
	out := filepath.Join(dir, "runs", id)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return false, err
	}
	for _, sub := range reportDirs {
		if err := copyTree(filepath.Join(src, sub), filepath.Join(out, sub)); err != nil {
			return false, err
		}
	}
	if err := atomicfile.Write(filepath.Join(out, "report.md"), md); err != nil {
		return false, err
	}
	var page bytes.Buffer
	// The report is the lab's own Markdown; goldmark leaves raw HTML out.
	if err := reportTmpl.Execute(&page, map[string]any{"ID": id, "Body": template.HTML(body.String())}); err != nil {
		return false, err
	}
	return true, atomicfile.Write(filepath.Join(out, "report.html"), page.Bytes())
}

// copyTree copies the regular files under src to dst; a missing src is
// nothing to copy.
func copyTree(src, dst string) error {
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

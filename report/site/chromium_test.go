package site

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// chromium is the browser the site's test opens pages in: $FPLAB_CHROMIUM
// (make test sets it to Debian's /usr/bin/chromium, which .ci/run
// installs). Without it the test is skipped; set to a browser that does
// not run, it fails.
func chromium(t *testing.T) string {
	b := os.Getenv("FPLAB_CHROMIUM")
	if b == "" {
		t.Skip("FPLAB_CHROMIUM is not set (make test sets it)")
	}
	return b
}

// render opens page in headless Chromium and returns the DOM after its
// scripts ran, and the console's errors. Chromium runs in a process group
// of its own, killed when it is done, so no renderer outlives the test.
func render(t *testing.T, page string) (dom string, consoleErrs []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium(t),
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--enable-logging=stderr", "--v=0",
		"--dump-dom", "file://"+page)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	if err != nil {
		t.Fatalf("chromium %s: %v\n%s", page, err, stderr.String())
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, ":CONSOLE") && (strings.Contains(line, "Uncaught") || strings.Contains(line, "Error")) {
			consoleErrs = append(consoleErrs, line)
		}
	}
	return stdout.String(), consoleErrs
}

var drawn = regexp.MustCompile(`data-charts-drawn="(\d+)"`)

// The pages load in a browser, their scripts run without an error, and
// every chart is drawn: a line per host, a dot per run, a marked change.
func TestPagesRenderInChromium(t *testing.T) {
	dir, _ := buildSite(t)
	for _, c := range []struct {
		page                         string
		charts, lines, dots, changes int
	}{
		// rec/s and ns/rec: a line per host each; 8+4 runs each; the step
		// on x86-1 on both units.
		{filepath.Join("cells", Slug(fastCell)+".html"), 2, 4, 24, 2},
		{filepath.Join("cells", Slug(aaCell+"/aa=a")+".html"), 1, 2, 12, 0},
		{"index.html", 0, 0, 0, 0},
		{filepath.Join("runs", "20261201T070000Z-x86-1", "report.html"), 0, 0, 0, 0},
	} {
		dom, errs := render(t, filepath.Join(dir, c.page))
		if len(errs) > 0 {
			t.Errorf("%s: console errors:\n%s", c.page, strings.Join(errs, "\n"))
		}
		if !strings.Contains(dom, "</body>") {
			t.Errorf("%s: no page in the DOM:\n%.500s", c.page, dom)
			continue
		}
		if strings.HasPrefix(c.page, "runs") {
			if !strings.Contains(dom, "<table>") || !strings.Contains(dom, `src="plots/overview.svg"`) {
				t.Errorf("%s: the report's table or figure is missing:\n%.2000s", c.page, dom)
			}
			continue
		}
		m := drawn.FindStringSubmatch(dom)
		if m == nil {
			t.Errorf("%s: the charts' script did not finish", c.page)
			continue
		}
		if n, _ := strconv.Atoi(m[1]); n != c.charts {
			t.Errorf("%s: %d charts drawn, want %d", c.page, n, c.charts)
		}
		if got := strings.Count(dom, "<polyline"); got != c.lines {
			t.Errorf("%s: %d lines, want %d", c.page, got, c.lines)
		}
		if got := strings.Count(dom, "<circle"); got != c.dots {
			t.Errorf("%s: %d dots, want %d", c.page, got, c.dots)
		}
		if got := strings.Count(dom, `class="change"`); got != c.changes {
			t.Errorf("%s: %d change marks, want %d", c.page, got, c.changes)
		}
	}
}

package report

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fastpathlab/fplab/internal/oneline"
	"github.com/fastpathlab/fplab/results/profile"
)

// writeProfiles adds, when the run kept profiles (<run>/profiles/*.cpu.pprof,
// from `fplab ladder --profile` or a spec's profile dimension), one row per
// CPU profile: the share of the cell's Go-visible CPU in each bucket. It
// writes nothing for a run without profiles; a profile that cannot be read
// is a row saying why.
func writeProfiles(b *strings.Builder, dir string) {
	files, _ := filepath.Glob(filepath.Join(dir, "profiles", "*.cpu.pprof"))
	if len(files) == 0 {
		return
	}
	sort.Strings(files)
	b.WriteString("## Profiles\n\n")
	b.WriteString("Share of each cell's CPU profile per bucket (`fplab profile top RUN CELL` shows the functions, `fplab profile diff RUN A B` compares two cells). Go's profiler sees librdkafka only as cgo calls on Go threads; its own threads are invisible to it (use perf).\n\n")
	buckets := profile.AllBuckets()
	head, align := []string{"profile"}, []string{"---"}
	for _, k := range buckets {
		head, align = append(head, k.String()), append(align, "--:")
	}
	t := table(align, head...)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".cpu.pprof")
		t.Row().Cell(fmt.Sprintf("`%s`", name))
		p, err := profile.Load(f)
		var bd profile.Breakdown
		if err == nil {
			bd, err = profile.Buckets(p)
		}
		if err != nil {
			t.Cell(gapMark + ": " + mdText(oneline.Err(err)))
			continue
		}
		for _, k := range buckets {
			st := bd.Bucket(k)
			if len(st.Fraction) == 0 {
				t.Cell(gapMark)
				continue
			}
			t.Cell(fmt.Sprintf("%.1f%%", 100*st.Fraction[0]))
		}
	}
	putTable(b, t)
}

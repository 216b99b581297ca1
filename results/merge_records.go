package results

import (
	"fmt"
	"slices"
	"strconv"
)

// recordsLabels orders the runs of a merge by records by their spec's
// records, smallest first, and returns them with their records= labels. It
// refuses, naming the run directories: a run whose spec has no records;
// two runs with the same records (even with force); and, unless force,
// runs whose specs differ in more than recordsFree or whose hosts differ.
func recordsLabels(runs []Run, force bool) ([]Run, []string, error) {
	type counted struct {
		run Run
		n   int64
	}
	cs := make([]counted, 0, len(runs))
	for _, r := range runs {
		n, err := specRecords(r)
		if err != nil {
			return nil, nil, err
		}
		cs = append(cs, counted{r, n})
	}
	slices.SortStableFunc(cs, func(a, b counted) int {
		switch {
		case a.n < b.n:
			return -1
		case a.n > b.n:
			return 1
		}
		return 0
	})
	sorted := make([]Run, len(cs))
	labels := make([]string, len(cs))
	for i, c := range cs {
		sorted[i], labels[i] = c.run, strconv.FormatInt(c.n, 10)
		if i > 0 && c.n == cs[i-1].n {
			return nil, nil, fmt.Errorf("merge: %s and %s both ran %s=%d; merging by records keys rows by it, so give one run per record count",
				cs[i-1].run.Dir, c.run.Dir, RecordsKey, c.n)
		}
	}
	if force {
		return sorted, labels, nil
	}
	base, err := specKey(sorted[0], recordsFree...)
	if err != nil {
		return nil, nil, err
	}
	for _, r := range sorted[1:] {
		k, err := specKey(r, recordsFree...)
		if err != nil {
			return nil, nil, err
		}
		if k != base {
			return nil, nil, fmt.Errorf("merge: %s and %s ran specs that differ in more than records, repetitions and warm-up (%s); force to merge anyway",
				sorted[0].Dir, r.Dir, specDiff(sorted[0].Manifest.Spec, r.Manifest.Spec, recordsFree...))
		}
		if d := hostDiff(sorted[0].Manifest, r.Manifest); d != "" {
			return nil, nil, fmt.Errorf("merge: %s and %s ran on different hosts (%s); merging by records compares one host's runs, force to merge anyway",
				sorted[0].Dir, r.Dir, d)
		}
	}
	return sorted, labels, nil
}

// specRecords reads the records of a run's stored spec (the ladder's
// "spec" object, else the whole stored spec): a positive integer, or an
// error naming the run.
func specRecords(r Run) (int64, error) {
	f := specFields(r.Manifest.Spec)[RecordsKey]
	n, err := strconv.ParseInt(f, 10, 64)
	if f == "" || err != nil || n <= 0 {
		why := "no records"
		if f != "" {
			why = "records " + f + ", not a positive integer"
		}
		return 0, fmt.Errorf("merge: %s: its spec in %s has %s (merging by records labels each run's rows with it)", r.Dir, ManifestFile, why)
	}
	return n, nil
}

// hostDiff names the first fingerprint field (or emulation) in which two
// runs' hosts differ, with both values; "" for the same host.
func hostDiff(a, b Manifest) string {
	fa, fb := a.Host, b.Host
	for _, d := range []struct {
		field  string
		va, vb string
	}{
		{"hostname", fa.Hostname, fb.Hostname},
		{"cpu model", fa.CPUModel, fb.CPUModel},
		{"cores", strconv.Itoa(fa.Cores), strconv.Itoa(fb.Cores)},
		{"arch", fa.Arch, fb.Arch},
		{"kernel", fa.Kernel, fb.Kernel},
		{"governor", fa.Governor, fb.Governor},
		{"SMT", fa.SMT, fb.SMT},
		{"THP", fa.THP, fb.THP},
		{"emulated", strconv.FormatBool(a.Emulated), strconv.FormatBool(b.Emulated)},
	} {
		if d.va != d.vb {
			return fmt.Sprintf("%s %q vs %q", d.field, d.va, d.vb)
		}
	}
	return ""
}

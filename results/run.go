package results

import "path/filepath"

// Run is a run directory read back: what cmd/ (report, compare) and plots/
// start from.
type Run struct {
	Dir      string
	Manifest Manifest
	Rows     []Row
	// Dropped counts torn trailing journal lines (0 or 1).
	Dropped int
}

// ReadRun reads dir's manifest and journal.
func ReadRun(dir string) (Run, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return Run{}, err
	}
	rows, dropped, err := ReadJournal(filepath.Join(dir, JournalFile))
	if err != nil {
		return Run{}, err
	}
	return Run{Dir: dir, Manifest: m, Rows: rows, Dropped: dropped}, nil
}

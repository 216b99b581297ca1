package rungargs

import "github.com/fastpathlab/fplab/workloads"

// DeletedBelow is where the topic of a case=deleted cell has its records
// deleted (clusters.DeleteRecords): half way through every partition. The
// ladder deletes them after loading; the cell then reads from offset 0,
// below the log start, and must fail.
func DeletedBelow(l *workloads.Layout) []int64 {
	_, stop := l.Bounds()
	for p := range stop {
		stop[p] /= 2
	}
	return stop
}

package workloads

// DeletedBelow is where a case=deleted cell's topic has its records
// deleted (clusters.DeleteRecords): half way through every partition, the
// offset End(p)/2 of each (0 for an empty one). It sits beside Bounds
// because both the ladder, which deletes the records after loading the
// topic and checks a ready topic's log start against it, and the rung,
// which asserts the log start before it reads from offset 0 below it and
// must fail, take it from the corpus's layout.
func (l *Layout) DeletedBelow() []int64 {
	_, stop := l.Bounds()
	for p := range stop {
		stop[p] /= 2
	}
	return stop
}

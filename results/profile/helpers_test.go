package profile

import "github.com/fastpathlab/fplab/results/resultstest"

// Short package prefixes for hand-written stacks and frames.
const (
	wl    = resultstest.Workloads
	src   = resultstest.Source
	rung  = resultstest.Rung
	arr   = resultstest.Array
	mem   = resultstest.Memory
	bitu  = resultstest.Bitutil
	kgo   = resultstest.Kgo
	kmsg  = resultstest.Kmsg
	ckafk = resultstest.Kafka
)

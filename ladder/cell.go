package ladder

import (
	"strconv"
	"strings"
	"time"
)

// Cell is one point of the matrix: one value per axis. Tag marks the A/A
// calibration copies ("aa=a", "aa=b"); it is empty for ordinary cells.
type Cell struct {
	Path    string
	Format  string
	Batch   int
	Brokers int
	Alloc   string
	CRC     string
	Cluster string
	// Ckpt is the cell's checkpoint interval (0: off).
	Ckpt time.Duration
	// Prof is set when the spec's profile dimension profiles this cell.
	Prof bool
	// Fault is "kill" for a cell selected by the spec's broker_kill (one
	// broker killed and restarted mid-cell), else empty.
	Fault string
	Tag   string
}

// Name is the sub-benchmark name the cell's rows carry, without the
// "BenchmarkLadder/" prefix:
//
//	path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off[/cluster=external][/ckpt=1s][/prof=on][/fault=kill][/aa=a]
//
// The cluster part appears only for non-embedded clusters, so embedded names
// match what the rung child prints.
func (c Cell) Name() string {
	var b strings.Builder
	for i, a := range Axes() {
		v := c.Value(a)
		if a == AxisCluster && v == "embedded" {
			continue
		}
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(a)
		b.WriteByte('=')
		b.WriteString(v)
	}
	if c.Ckpt > 0 {
		b.WriteString("/ckpt=")
		b.WriteString(c.Ckpt.String())
	}
	if c.Prof {
		b.WriteString("/prof=on")
	}
	if c.Fault != "" {
		b.WriteString("/fault=")
		b.WriteString(c.Fault)
	}
	if c.Tag != "" {
		b.WriteByte('/')
		b.WriteString(c.Tag)
	}
	return b.String()
}

// Value returns the cell's value on axis as it is written in a spec.
func (c Cell) Value(axis string) string {
	switch axis {
	case AxisPath:
		return c.Path
	case AxisFormat:
		return c.Format
	case AxisBatch:
		return strconv.Itoa(c.Batch)
	case AxisBrokers:
		return strconv.Itoa(c.Brokers)
	case AxisAlloc:
		return c.Alloc
	case AxisCRC:
		return c.CRC
	case AxisCluster:
		return c.Cluster
	}
	return ""
}

// Matches reports whether the cell has every axis value of m.
func (c Cell) Matches(m map[string]string) bool {
	for a, v := range m {
		if c.Value(a) != v {
			return false
		}
	}
	return true
}

// Shape is the cluster shape a cell runs on: cells of one shape share one
// broker process (embedded) or one external cluster.
type Shape struct {
	Cluster string
	Brokers int
}

// Shape returns the cell's cluster shape.
func (c Cell) Shape() Shape { return Shape{Cluster: c.Cluster, Brokers: c.Brokers} }

func (s Shape) String() string { return s.Cluster + "/brokers=" + strconv.Itoa(s.Brokers) }

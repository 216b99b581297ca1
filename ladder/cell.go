package ladder

import (
	"strconv"

	"github.com/fastpathlab/fplab/cell"
)

// Shape is the cluster shape a cell runs on: cells of one shape share one
// broker process (embedded) or one external cluster.
type Shape struct {
	Cluster string
	Brokers int
}

// shapeOf returns the cluster shape of c.
func shapeOf(c cell.Cell) Shape { return Shape{Cluster: c.Value(cell.Cluster), Brokers: c.Brokers} }

func (s Shape) String() string { return s.Cluster + "/brokers=" + strconv.Itoa(s.Brokers) }

package clusters

import (
	"fmt"

	"github.com/fastpathlab/fplab/cell"
)

// limit is one bounded integer setting of the embedded cluster or the loader.
type limit struct {
	name   string
	lo, hi int
}

// The limits of what the embedded cluster and the loader accept.
var (
	brokersLimit    = limit{name: "brokers", lo: 1, hi: 9}
	partitionsLimit = limit{name: "partitions", lo: 1, hi: cell.MaxPartitions}
)

// bounded pairs a value with the limit it must respect.
type bounded struct {
	limit
	v int
}

// validate checks every value against its limit and returns the first
// violation as a one-line error.
func validate(values ...bounded) error {
	for _, b := range values {
		if b.v < b.lo || b.v > b.hi {
			return fmt.Errorf("%s must be %d..%d, got %d", b.name, b.lo, b.hi, b.v)
		}
	}
	return nil
}

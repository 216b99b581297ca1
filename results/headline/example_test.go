package headline_test

import (
	"fmt"

	"github.com/fastpathlab/fplab/results/headline"
)

// A spec's headline is parsed when the spec loads and held against the
// axes it sweeps.
func ExampleCheck() {
	axes := map[string][]string{
		"path":   {"fast", "java"},
		"format": {"json", "raw"},
	}
	for _, h := range []string{"fast/java on raw", "fast/flink by format"} {
		c, err := headline.Parse(h)
		if err != nil {
			fmt.Println(err)
			continue
		}
		if err := headline.Check(c, axes); err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s: %s over %s, on %s, in %s\n", c.Text, c.A.Value, c.B.Value, c.On[0].Value, c.Unit)
	}
	// Output:
	// fast/java on raw: fast over java, on raw, in rec/s
	// headline "fast/flink by format": path=flink is not run by this spec
}

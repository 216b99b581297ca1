package source_test

import (
	"os"
	"testing"

	"github.com/fastpathlab/fplab/clusters/clusterstest"
)

func TestMain(m *testing.M) {
	clusterstest.BrokerMain()
	code := m.Run()
	for _, f := range atExit {
		f()
	}
	os.Exit(code)
}

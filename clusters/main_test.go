package clusters_test

import (
	"os"
	"testing"

	"github.com/fastpathlab/fplab/clusters/clusterstest"
)

func TestMain(m *testing.M) {
	clusterstest.BrokerMain()
	os.Exit(m.Run())
}

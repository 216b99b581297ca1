package history

import (
	"os"
	"testing"

	"github.com/fastpathlab/fplab/internal/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

package ceiling

import (
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/fastpathlab/fplab/source/internal/kplain"
)

// saslOpt maps Config.Props onto a kgo SASL option: nil for no props, PLAIN
// on SASL_PLAINTEXT for a complete set, an error for anything else; the
// franz path's rule (source/internal/kplain), as clusters' mapping takes
// more than PLAIN.
func saslOpt(props map[string]string) (kgo.Opt, error) {
	return kplain.Opt(props)
}

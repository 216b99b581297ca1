package ceiling

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/plain"
)

// saslOpt maps Config.Props onto a kgo SASL option: nil for no props, PLAIN
// on SASL_PLAINTEXT for a complete set, an error for anything else. It is
// the franz path's rule (source.franzSASL), which is unexported there, and
// clusters' mapping takes more than PLAIN; errors name keys, never values.
func saslOpt(props map[string]string) (kgo.Opt, error) {
	if len(props) == 0 {
		return nil, nil
	}
	for _, k := range slices.Sorted(maps.Keys(props)) {
		switch k {
		case "security.protocol", "sasl.mechanism", "sasl.mechanisms", "sasl.username", "sasl.password":
		default:
			return nil, fmt.Errorf("ceiling: client property %q is not taken: only a SASL_PLAINTEXT cluster's PLAIN properties are (security.protocol, sasl.mechanism(s), sasl.username, sasl.password)", k)
		}
	}
	if proto := strings.TrimSpace(props["security.protocol"]); !strings.EqualFold(proto, "SASL_PLAINTEXT") {
		return nil, fmt.Errorf("ceiling: security.protocol %q: with client properties only SASL_PLAINTEXT is supported", proto)
	}
	mech := strings.TrimSpace(props["sasl.mechanism"])
	if m := strings.TrimSpace(props["sasl.mechanisms"]); mech == "" {
		mech = m
	} else if m != "" && !strings.EqualFold(m, mech) {
		return nil, fmt.Errorf("ceiling: sasl.mechanism %q and sasl.mechanisms %q differ", mech, m)
	}
	if !strings.EqualFold(mech, "PLAIN") {
		return nil, fmt.Errorf("ceiling: sasl.mechanism %q: only PLAIN is supported", mech)
	}
	user, pass := props["sasl.username"], props["sasl.password"]
	if user == "" || pass == "" {
		return nil, fmt.Errorf("ceiling: SASL PLAIN needs sasl.username and sasl.password")
	}
	return kgo.SASL(plain.Auth{User: user, Pass: pass}.AsMechanism()), nil
}

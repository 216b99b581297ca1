// Package kplain maps the only client properties the lab's franz-go
// clients take (the franz path's reader and the ceiling's raw Fetch
// client) onto a kgo option: a SASL_PLAINTEXT cluster's PLAIN properties.
//
// Where it sits in the flow:
//
//	spec -> cells -> child process (fplab rung) -> [source: franz path, ceiling -> kplain -> franz-go] -> result -> journal -> tables/plots/report
//
// librdkafka's properties mean nothing to franz-go, so anything else is
// refused by name rather than ignored. Errors carry no package prefix (only
// the CLI adds one) and name keys, never values: a password never reaches a
// log.
package kplain

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/plain"
)

// Keys are the properties Opt takes.
var Keys = []string{"security.protocol", "sasl.mechanism", "sasl.mechanisms", "sasl.username", "sasl.password"}

// Opt returns nil for no properties, the PLAIN mechanism for a complete
// SASL_PLAINTEXT set, and an error for anything else. sasl.mechanisms
// (librdkafka's spelling) is taken for sasl.mechanism; both must agree.
func Opt(props map[string]string) (kgo.Opt, error) {
	if len(props) == 0 {
		return nil, nil
	}
	for _, k := range slices.Sorted(maps.Keys(props)) {
		if !slices.Contains(Keys, k) {
			return nil, fmt.Errorf("client property %q is not taken: only a SASL_PLAINTEXT cluster's PLAIN properties are (%s)", k, strings.Join(Keys, ", "))
		}
	}
	if proto := props["security.protocol"]; !strings.EqualFold(strings.TrimSpace(proto), "SASL_PLAINTEXT") {
		return nil, fmt.Errorf("security.protocol %q: with client properties only SASL_PLAINTEXT is supported", proto)
	}
	mech := strings.TrimSpace(props["sasl.mechanism"])
	if m := strings.TrimSpace(props["sasl.mechanisms"]); mech == "" {
		mech = m
	} else if m != "" && !strings.EqualFold(m, mech) {
		return nil, fmt.Errorf("sasl.mechanism %q and sasl.mechanisms %q differ", mech, m)
	}
	if !strings.EqualFold(mech, "PLAIN") {
		return nil, fmt.Errorf("sasl.mechanism %q: only PLAIN is supported", mech)
	}
	user, pass := props["sasl.username"], props["sasl.password"]
	if user == "" || pass == "" {
		return nil, fmt.Errorf("SASL PLAIN needs sasl.username and sasl.password")
	}
	return kgo.SASL(plain.Auth{User: user, Pass: pass}.AsMechanism()), nil
}

package clusters

import (
	"fmt"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/fastpathlab/fplab/cell"
)

// clientOpts maps the Cluster's librdkafka-style properties onto franz-go
// options for the loader and the metadata read-back: bootstrap, client.id,
// security.protocol, SASL PLAIN/SCRAM and TLS. Other properties (fetch and
// consumer tuning) belong to the consumers and are ignored here. Errors
// name keys, never secret values.
func (c Cluster) clientOpts() ([]kgo.Opt, error) {
	seeds := c.Bootstrap
	if len(seeds) == 0 {
		if list, ok := c.Props["bootstrap.servers"]; ok {
			var err error
			if seeds, err = cell.ParseBootstrap(list); err != nil {
				return nil, err
			}
		}
	}
	if len(seeds) == 0 {
		return nil, fmt.Errorf("no bootstrap servers")
	}
	opts := []kgo.Opt{kgo.SeedBrokers(seeds...)}
	if id := c.Props["client.id"]; id != "" {
		opts = append(opts, kgo.ClientID(id))
	}

	proto := strings.ToUpper(strings.TrimSpace(c.Props["security.protocol"]))
	var useSASL, useTLS bool
	switch proto {
	case "", "PLAINTEXT":
	case "SSL":
		useTLS = true
	case "SASL_PLAINTEXT":
		useSASL = true
	case "SASL_SSL":
		useSASL, useTLS = true, true
	default:
		return nil, fmt.Errorf("security.protocol %q is unknown (want PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL)", proto)
	}
	if useSASL {
		o, err := c.saslOpt()
		if err != nil {
			return nil, err
		}
		opts = append(opts, o)
	}
	if useTLS {
		tc, err := c.tlsConfig()
		if err != nil {
			return nil, err
		}
		opts = append(opts, kgo.DialTLSConfig(tc))
	}
	return opts, nil
}

// saslOpt maps sasl.mechanism(s), sasl.username and sasl.password.
func (c Cluster) saslOpt() (kgo.Opt, error) {
	mech := c.Props["sasl.mechanism"]
	if mech == "" {
		mech = c.Props["sasl.mechanisms"]
	}
	mech = strings.ToUpper(strings.TrimSpace(mech))
	if mech == "" {
		mech = "GSSAPI" // librdkafka's default
	}
	user, pass := c.Props["sasl.username"], c.Props["sasl.password"]
	switch mech {
	case "PLAIN":
		return kgo.SASL(plain.Auth{User: user, Pass: pass}.AsMechanism()), nil
	case "SCRAM-SHA-256":
		return kgo.SASL(scram.Auth{User: user, Pass: pass}.AsSha256Mechanism()), nil
	case "SCRAM-SHA-512":
		return kgo.SASL(scram.Auth{User: user, Pass: pass}.AsSha512Mechanism()), nil
	}
	return nil, fmt.Errorf("sasl.mechanism %s is unsupported by the loader (PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 are)", mech)
}

package clusters_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
)

// secretProps has one secret per kind of secret key, each value unique so
// a leak can be spotted anywhere.
var secretProps = map[string]string{
	"sasl.password":                   "pw-Alpha",
	"ssl.key.password":                "pw-Bravo",
	"sasl.oauthbearer.client.secret":  "pw-Charlie",
	"sasl.oauthbearer.token.endpoint": "pw-Delta",
	"ssl.key.pem":                     "pw-Echo",
	"sasl.jaas.config":                "pw-Foxtrot",
	"SASL.PASSWORD.upper":             "pw-Golf",
	"ssl.keystore.password":           "pw-Hotel",
	// librdkafka lists these _RK_SENSITIVE too (see cell.IsSecretKey).
	"sasl.username":    "pw-India",
	"ssl.key.location": "pw-Juliett",
}

var publicProps = map[string]string{
	"security.protocol": "SASL_SSL",
	"sasl.mechanism":    "PLAIN",
	"ssl.ca.location":   "/etc/kafka/ca.pem",
}

func secretCluster() clusters.Cluster {
	props := map[string]string{}
	for k, v := range secretProps {
		props[k] = v
	}
	for k, v := range publicProps {
		props[k] = v
	}
	return clusters.Cluster{Bootstrap: []string{"127.0.0.1:1"}, Props: props}
}

func assertNoSecret(t *testing.T, where, s string) {
	t.Helper()
	for k, v := range secretProps {
		if strings.Contains(s, v) {
			t.Errorf("%s leaks the value of %s: %q", where, k, s)
		}
	}
}

func TestRedacted(t *testing.T) {
	c := secretCluster()
	red := c.Redacted()
	for k := range secretProps {
		if red[k] != cell.Redacted {
			t.Errorf("Redacted()[%q] = %q, want %q", k, red[k], cell.Redacted)
		}
	}
	for k, v := range publicProps {
		if red[k] != v {
			t.Errorf("Redacted()[%q] = %q, want it kept as %q", k, red[k], v)
		}
	}
	if c.Props["sasl.password"] != "pw-Alpha" {
		t.Error("Redacted modified the cluster's own props")
	}
	assertNoSecret(t, "Redacted()", fmt.Sprint(red))
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
		assertNoSecret(t, verb, fmt.Sprintf(verb, c))
		assertNoSecret(t, verb+" of pointer", fmt.Sprintf(verb, &c))
	}
	if s := c.String(); !strings.Contains(s, "ssl.ca.location=/etc/kafka/ca.pem") || !strings.Contains(s, "sasl.password=REDACTED") {
		t.Errorf("String() = %q, want public values shown and secrets redacted", s)
	}
}

// TestErrorsCarryNoSecrets drives every error path that sees the props.
func TestErrorsCarryNoSecrets(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	variants := []map[string]string{
		{"security.protocol": "SASL_SSL", "sasl.mechanism": "OAUTHBEARER"},
		{"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN"},
		{"security.protocol": "SSL"},   // ssl.key.password set: unsupported
		{"security.protocol": "bogus"}, // unknown protocol
	}
	for i, v := range variants {
		c := secretCluster()
		for k, val := range v {
			c.Props[k] = val
		}
		_, err1 := clusters.BrokerCount(ctx, c)
		_, err2 := clusters.Load(ctx, c, "t", 1, 1, func(dst []byte, _ int) []byte { return dst })
		_, err3 := clusters.TopicReady(ctx, c, "t", 1, 1)
		for j, err := range []error{err1, err2, err3} {
			if err == nil {
				t.Errorf("variant %d call %d: no error", i, j)
				continue
			}
			assertNoSecret(t, fmt.Sprintf("variant %d call %d error", i, j), err.Error())
		}
	}
}

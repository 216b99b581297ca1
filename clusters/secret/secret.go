// Package secret is the one list of client properties whose values are
// secrets: they never reach disk, argv, the environment or an error text.
//
// It imports only the standard library, so results (which must stay a leaf,
// free of clusters' client libraries) can redact a manifest with the same
// rule clusters.IsSecretKey applies everywhere else.
package secret

import "strings"

// Redacted is the text that replaces a secret value.
const Redacted = "REDACTED"

// librdkafka marks these properties _RK_SENSITIVE in src/rdkafka_conf.c
// (v2.11.1, the version confluent-kafka-go v2.11.1 bundles; unchanged in
// v2.15.0); its "conf" debug dump prints them as "[redacted]". The list is
// taken whole, including the identities and paths it hides (sasl.username,
// ssl.key.location, ...): a redacted value that was not secret costs a line
// of a report, a printed one that was costs a credential.
var librdkafkaSensitive = []string{
	"ssl.key.location",
	"ssl.key.password",
	"ssl.key.pem",
	"ssl_key",
	"ssl.ca.pem",
	"ssl.keystore.password",
	"sasl.username",
	"sasl.password",
	"sasl.oauthbearer.config",
	"sasl.oauthbearer.client.secret",
	"sasl.oauthbearer.assertion.private.key.file",
	"sasl.oauthbearer.assertion.private.key.passphrase",
	"sasl.oauthbearer.assertion.private.key.pem",
}

// kafkaPassword are the client configs Apache Kafka defines with
// ConfigDef.Type.PASSWORD (clients/.../common/config/SslConfigs.java
// addClientSslSupport and SaslConfigs.java addClientSaslSupport, Kafka 4.1),
// which Kafka itself logs as "[hidden]". The java path takes Kafka's names.
var kafkaPassword = []string{
	"ssl.keystore.password",
	"ssl.key.password",
	"ssl.keystore.key",
	"ssl.keystore.certificate.chain",
	"ssl.truststore.certificates",
	"ssl.truststore.password",
	"sasl.jaas.config",
	"sasl.oauthbearer.client.credentials.client.secret",
	"sasl.oauthbearer.assertion.private.key.passphrase",
}

// marks make an unknown key secret: a property neither list knows (a newer
// client's, a plugin's) is treated as secret when its name says it is one.
var marks = []string{"password", "passphrase", "secret", "token", "jaas"}

var known = func() map[string]bool {
	m := make(map[string]bool, len(librdkafkaSensitive)+len(kafkaPassword))
	for _, k := range librdkafkaSensitive {
		m[k] = true
	}
	for _, k := range kafkaPassword {
		m[k] = true
	}
	return m
}()

// IsKey reports whether the value of the client property key is a secret.
// Keys are compared case-insensitively and without surrounding space.
func IsKey(key string) bool {
	k := strings.ToLower(strings.TrimSpace(key))
	if known[k] {
		return true
	}
	for _, m := range marks {
		if strings.Contains(k, m) {
			return true
		}
	}
	return false
}

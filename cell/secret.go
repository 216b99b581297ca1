package cell

import "strings"

// The secret-key rule lives in the vocabulary, beside the names it guards,
// so every layer (the child's argv, the run directory's manifest, the
// report) redacts with one rule without importing a Kafka client.

// Redacted is the text that replaces a secret value wherever a secret
// would otherwise be shown or written.
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

var secretKeys = func() map[string]bool {
	m := make(map[string]bool, len(librdkafkaSensitive)+len(kafkaPassword))
	for _, k := range librdkafkaSensitive {
		m[k] = true
	}
	for _, k := range kafkaPassword {
		m[k] = true
	}
	return m
}()

// IsSecretKey reports whether the value of the client property key is a
// secret, which must never be printed, written to disk or put on a command
// line: the properties librdkafka marks sensitive, the ones Kafka types
// PASSWORD, and any other key naming a password, passphrase, secret, token
// or JAAS config. Keys are compared case-insensitively and without
// surrounding space.
func IsSecretKey(key string) bool {
	k := strings.ToLower(strings.TrimSpace(key))
	if secretKeys[k] {
		return true
	}
	for _, m := range marks {
		if strings.Contains(k, m) {
			return true
		}
	}
	return false
}

// SplitSecrets splits props into the values that may be shown and the
// secret ones (nil when there are none).
func SplitSecrets(props map[string]string) (public, secrets map[string]string) {
	for k, v := range props {
		if IsSecretKey(k) {
			if secrets == nil {
				secrets = map[string]string{}
			}
			secrets[k] = v
			continue
		}
		if public == nil {
			public = map[string]string{}
		}
		public[k] = v
	}
	return public, secrets
}

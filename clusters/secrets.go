package clusters

import "github.com/fastpathlab/fplab/clusters/secret"

// RedactedValue is the text that replaces secret values.
const RedactedValue = secret.Redacted

// IsSecretKey reports whether a client property's value is a secret, which
// must never be printed, written to disk or put on a command line: the
// properties librdkafka marks sensitive, the ones Kafka types PASSWORD, and
// any other key naming a password, passphrase, secret, token or JAAS config.
// The lists, and where they come from, are in package secret, which results
// shares without importing clusters.
func IsSecretKey(key string) bool { return secret.IsKey(key) }

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

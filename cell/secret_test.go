package cell_test

import (
	"testing"

	"github.com/fastpathlab/fplab/cell"
)

func TestIsSecretKey(t *testing.T) {
	// librdkafka's _RK_SENSITIVE properties (src/rdkafka_conf.c).
	librdkafka := []string{
		"ssl.key.location", "ssl.key.password", "ssl.key.pem", "ssl_key", "ssl.ca.pem",
		"ssl.keystore.password", "sasl.username", "sasl.password", "sasl.oauthbearer.config",
		"sasl.oauthbearer.client.secret", "sasl.oauthbearer.assertion.private.key.file",
		"sasl.oauthbearer.assertion.private.key.passphrase", "sasl.oauthbearer.assertion.private.key.pem",
	}
	// Kafka's ConfigDef.Type.PASSWORD client configs.
	kafka := []string{
		"ssl.keystore.password", "ssl.key.password", "ssl.keystore.key", "ssl.keystore.certificate.chain",
		"ssl.truststore.certificates", "ssl.truststore.password", "sasl.jaas.config",
		"sasl.oauthbearer.client.credentials.client.secret", "sasl.oauthbearer.assertion.private.key.passphrase",
	}
	// Unknown keys caught by their names, in any case.
	fallback := []string{"SASL.PASSWORD", " sasl.password ", "my.plugin.api.token", "x.secret.value", "a.jaas.b", "some.key.passphrase"}
	for _, group := range [][]string{librdkafka, kafka, fallback} {
		for _, k := range group {
			if !cell.IsSecretKey(k) {
				t.Errorf("IsSecretKey(%q) = false, want true", k)
			}
		}
	}
	public := []string{
		"security.protocol", "sasl.mechanism", "sasl.mechanisms", "ssl.ca.location", "ssl.certificate.location",
		"ssl.certificate.pem", "ssl.keystore.location", "ssl.endpoint.identification.algorithm",
		"sasl.oauthbearer.method", "sasl.oauthbearer.client.id", "sasl.kerberos.service.name", "client.id",
	}
	for _, k := range public {
		if cell.IsSecretKey(k) {
			t.Errorf("IsSecretKey(%q) = true, want false", k)
		}
	}
}

func TestSplitSecrets(t *testing.T) {
	pub, sec := cell.SplitSecrets(map[string]string{"security.protocol": "SASL_SSL", "sasl.password": "pw"})
	if len(pub) != 1 || pub["security.protocol"] != "SASL_SSL" || len(sec) != 1 || sec["sasl.password"] != "pw" {
		t.Errorf("SplitSecrets = %v, %v", pub, sec)
	}
	if pub, sec := cell.SplitSecrets(nil); pub != nil || sec != nil {
		t.Errorf("SplitSecrets(nil) = %v, %v, want nil, nil", pub, sec)
	}
}

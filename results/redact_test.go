package results

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A spec as the ladder stores it, with the external cluster's properties.
const secretSpec = `{"spec":{"name":"ext","seed":18446744073709551615,"cluster":["external"],` +
	`"bootstrap":["k1:9093"],"cluster_props":{"security.protocol":"SASL_SSL","sasl.mechanism":"SCRAM-SHA-512",` +
	`"sasl.username":"user-Kilo","sasl.password":"pw-Alpha","ssl.key.password":"pw-Bravo",` +
	`"sasl.jaas.config":"pw-Charlie","my.api.token":"pw-Delta"}},"cells":["path=fast"],"entries":2}`

func TestWriteManifestRedactsSecrets(t *testing.T) {
	dir := t.TempDir()
	if err := WriteManifest(dir, Manifest{Spec: json.RawMessage(secretSpec)}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{"user-Kilo", "pw-Alpha", "pw-Bravo", "pw-Charlie", "pw-Delta"} {
		if strings.Contains(string(data), leak) {
			t.Errorf("manifest.json holds the secret %q:\n%s", leak, data)
		}
	}
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Spec struct {
			Seed  json.Number       `json:"seed"`
			Props map[string]string `json:"cluster_props"`
		} `json:"spec"`
		Cells []string `json:"cells"`
	}
	if err := json.Unmarshal(m.Spec, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"security.protocol": "SASL_SSL", "sasl.mechanism": "SCRAM-SHA-512",
		"sasl.username": "REDACTED", "sasl.password": "REDACTED", "ssl.key.password": "REDACTED",
		"sasl.jaas.config": "REDACTED", "my.api.token": "REDACTED",
	}
	for k, v := range want {
		if got.Spec.Props[k] != v {
			t.Errorf("cluster_props[%q] = %q, want %q", k, got.Spec.Props[k], v)
		}
	}
	if got.Spec.Seed != "18446744073709551615" || len(got.Cells) != 1 {
		t.Errorf("the rest of the spec changed: seed %s, cells %v", got.Spec.Seed, got.Cells)
	}
	if i, j := strings.Index(string(m.Spec), `"spec"`), strings.Index(string(m.Spec), `"cells"`); i < 0 || j < i {
		t.Errorf("key order changed: %s", m.Spec)
	}
}

func TestRedactSpecKeepsASpecWithoutSecrets(t *testing.T) {
	raw := json.RawMessage(`{ "spec": {"cluster_props": {"security.protocol": "SSL"}}, "x": [1, {"y": null}] }`)
	got, err := redactSpec(raw)
	if err != nil || string(got) != string(raw) {
		t.Errorf("redactSpec = %s, %v; want it unchanged", got, err)
	}
	if _, err := redactSpec(json.RawMessage(`{"a":`)); err == nil || !strings.HasPrefix(err.Error(), "redact spec: ") {
		t.Errorf("broken spec: err = %v, want a redact spec: error", err)
	}
}

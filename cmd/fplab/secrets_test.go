package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadSecrets(t *testing.T) {
	dir := t.TempDir()
	file := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	got, err := readSecrets(file("ok", "# the run's secrets\n\nsasl.password = pw-Alpha=b\n ssl.key.password=pw-Bravo\n"), nil)
	want := map[string]string{"sasl.password": " pw-Alpha=b", "ssl.key.password": "pw-Bravo"}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("readSecrets = %q, %v; want %q", got, err, want)
	}
	got, err = readSecrets("-", strings.NewReader("sasl.password=pw-Charlie\n"))
	if err != nil || got["sasl.password"] != "pw-Charlie" {
		t.Errorf("from stdin: %q, %v", got, err)
	}
	for _, c := range []struct{ body, want string }{
		{"pw-Delta\n", ":1: not key=value"},
		{"sasl.password=pw-Echo\nsasl.password=pw-Echo\n", ":2: sasl.password given twice"},
		{"security.protocol=SASL_SSL\n", ":1: security.protocol is not a secret client property"},
		{"# nothing\n", ": no key=value line"},
		{strings.Repeat("x", maxSecretsBytes+1), "more than 65536 bytes"},
	} {
		_, err := readSecrets(file("bad", c.body), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "pw-") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v, want %q and no secret", c.body, err, c.want)
		}
	}
	if _, err := readSecrets(filepath.Join(dir, "nope"), nil); err == nil || !strings.HasPrefix(err.Error(), "secrets: open ") {
		t.Errorf("missing file: %v", err)
	}
}

package kplain

import (
	"maps"
	"strings"
	"testing"
)

func TestOpt(t *testing.T) {
	base := map[string]string{
		"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN",
		"sasl.username": "admin", "sasl.password": "hunter2",
	}
	with := func(kv ...string) map[string]string {
		m := maps.Clone(base)
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == "-" {
				delete(m, kv[i])
			} else {
				m[kv[i]] = kv[i+1]
			}
		}
		return m
	}
	if o, err := Opt(nil); o != nil || err != nil {
		t.Errorf("no properties: %v, %v", o, err)
	}
	for _, ok := range []map[string]string{
		base,
		with("sasl.mechanism", "-", "sasl.mechanisms", "plain", "security.protocol", " sasl_plaintext "),
		with("sasl.mechanisms", "PLAIN"),
	} {
		if o, err := Opt(ok); o == nil || err != nil {
			t.Errorf("%v: %v, %v", ok, o, err)
		}
	}
	for _, tc := range []struct {
		props map[string]string
		want  string
	}{
		{with("fetch.min.bytes", "1"), `client property "fetch.min.bytes" is not taken`},
		{map[string]string{"ssl.ca.location": "x"}, `client property "ssl.ca.location" is not taken`},
		{with("security.protocol", "SASL_SSL"), `security.protocol "SASL_SSL": with client properties only SASL_PLAINTEXT`},
		{with("security.protocol", "-"), `security.protocol "":`},
		{with("sasl.mechanism", "SCRAM-SHA-256"), `sasl.mechanism "SCRAM-SHA-256": only PLAIN`},
		{with("sasl.mechanisms", "SCRAM-SHA-512"), `sasl.mechanism "PLAIN" and sasl.mechanisms "SCRAM-SHA-512" differ`},
		{with("sasl.password", ""), "SASL PLAIN needs sasl.username and sasl.password"},
		{with("sasl.username", "-"), "SASL PLAIN needs sasl.username and sasl.password"},
	} {
		_, err := Opt(tc.props)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%v: %v, want one line starting %q, no password", tc.props, err, tc.want)
		}
	}
}

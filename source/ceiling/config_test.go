package ceiling

import (
	"strings"
	"testing"
	"time"
)

func validConfig() Config {
	return Config{Bootstrap: []string{"127.0.0.1:9092"}, Topic: "t", Partitions: 3, Timeout: time.Second}
}

func TestDefaults(t *testing.T) {
	c := validConfig().withDefaults()
	if c.FetchMaxBytes != 52428800 || c.PartitionMaxBytes != 1048576 || c.MaxWait != 500*time.Millisecond {
		t.Errorf("defaults: %d, %d, %v; want librdkafka's 52428800, 1048576, 500ms", c.FetchMaxBytes, c.PartitionMaxBytes, c.MaxWait)
	}
	if err := c.validate(); err != nil {
		t.Errorf("valid config: %v", err)
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"no bootstrap", func(c *Config) { c.Bootstrap = nil }, "no bootstrap servers"},
		{"blank bootstrap", func(c *Config) { c.Bootstrap = []string{"a:1", " "} }, "empty bootstrap server"},
		{"no topic", func(c *Config) { c.Topic = "" }, "no topic"},
		{"no partitions", func(c *Config) { c.Partitions = 0 }, "partitions must be 1..1024, got 0"},
		{"too many partitions", func(c *Config) { c.Partitions = 1025 }, "partitions must be 1..1024, got 1025"},
		{"negative fetch max", func(c *Config) { c.FetchMaxBytes = -1 }, "fetch max bytes must be 1..1073741824, got -1"},
		{"fetch max past 1 GiB", func(c *Config) { c.FetchMaxBytes = 1<<30 + 1 }, "fetch max bytes must be 1..1073741824"},
		{"negative partition max", func(c *Config) { c.PartitionMaxBytes = -5 }, "partition max bytes must be 1..1073741824, got -5"},
		{"negative max wait", func(c *Config) { c.MaxWait = -time.Second }, "max wait must be 1ms..5m0s"},
		{"max wait past librdkafka's cap", func(c *Config) { c.MaxWait = time.Hour }, "max wait must be 1ms..5m0s, got 1h0m0s"},
		{"no timeout", func(c *Config) { c.Timeout = 0 }, "timeout must be > 0, got 0s"},
		{"a librdkafka tuning property", func(c *Config) { c.Props = map[string]string{"fetch.min.bytes": "1"} }, `client property "fetch.min.bytes" is not taken`},
	}
	for _, k := range cases {
		c := validConfig()
		k.edit(&c)
		c = c.withDefaults()
		err := c.validate()
		if err == nil || !strings.HasPrefix(err.Error(), k.want) {
			t.Errorf("%s: %v, want prefix %q", k.name, err, k.want)
		}
	}
}

func TestSASLProps(t *testing.T) {
	plain := func(kv ...string) map[string]string {
		m := map[string]string{"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN",
			"sasl.username": "alice", "sasl.password": "secret-pw"}
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i+1] == "" {
				delete(m, kv[i])
			} else {
				m[kv[i]] = kv[i+1]
			}
		}
		return m
	}
	for _, ok := range []map[string]string{
		nil,
		plain(),
		plain("sasl.mechanism", "", "sasl.mechanisms", "plain", "security.protocol", "sasl_plaintext"),
	} {
		if o, err := saslOpt(ok); err != nil || (ok != nil) != (o != nil) {
			t.Errorf("props %v: %v, %v", ok, o, err)
		}
	}
	cases := []struct {
		props map[string]string
		want  string
	}{
		{plain("security.protocol", "SASL_SSL"), `security.protocol "SASL_SSL": with client properties only SASL_PLAINTEXT`},
		{plain("security.protocol", ""), `security.protocol "": with client properties only SASL_PLAINTEXT`},
		{plain("sasl.mechanism", "SCRAM-SHA-256"), `sasl.mechanism "SCRAM-SHA-256": only PLAIN`},
		{plain("sasl.mechanisms", "SCRAM-SHA-512"), `sasl.mechanism "PLAIN" and sasl.mechanisms "SCRAM-SHA-512" differ`},
		{plain("sasl.password", ""), "SASL PLAIN needs sasl.username and sasl.password"},
		{plain("ssl.ca.location", "/x"), `client property "ssl.ca.location" is not taken`},
	}
	for _, k := range cases {
		_, err := saslOpt(k.props)
		if err == nil || !strings.HasPrefix(err.Error(), k.want) {
			t.Errorf("props %v: %v, want prefix %q", k.props, err, k.want)
		} else if strings.Contains(err.Error(), "secret-pw") {
			t.Errorf("error leaks the password: %v", err)
		}
	}
}

func TestMaxReadBytes(t *testing.T) {
	for _, c := range []struct{ in, want int32 }{
		{1, 100 << 20}, {DefaultFetchMaxBytes, 100 << 20}, {100 << 20, 200 << 20}, {1 << 30, 1<<31 - 1},
	} {
		if got := maxReadBytes(c.in); got != c.want {
			t.Errorf("maxReadBytes(%d) = %d, want %d", c.in, got, c.want)
		}
	}
}

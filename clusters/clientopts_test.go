package clusters_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/clusterstest"
)

// The SASL and TLS mappings are checked against kfake in this process:
// these tests look at behaviour only, never at figures.

func TestSASLProps(t *testing.T) {
	addrs := clusterstest.InProcess(t, kfake.EnableSASL(),
		kfake.Superuser("PLAIN", "alice", "pw-plain"),
		kfake.Superuser("SCRAM-SHA-256", "bob", "pw-scram256"),
		kfake.Superuser("SCRAM-SHA-512", "carol", "pw-scram512")).ListenAddrs()
	ctx, cancel := context.WithTimeout(t.Context(), failSafe)
	defer cancel()
	users := []struct{ mech, user, pass string }{
		{"PLAIN", "alice", "pw-plain"},
		{"SCRAM-SHA-256", "bob", "pw-scram256"},
		{"scram-sha-512", "carol", "pw-scram512"},
	}
	for _, u := range users {
		props := map[string]string{
			"security.protocol": "SASL_PLAINTEXT",
			"sasl.mechanism":    u.mech,
			"sasl.username":     u.user,
			"sasl.password":     u.pass,
		}
		c := clusters.Cluster{Bootstrap: addrs, Props: props}
		if n, err := clusters.BrokerCount(ctx, c); err != nil || n != 1 {
			t.Errorf("%s: BrokerCount = %d, %v; want 1", u.mech, n, err)
		}
		if u.mech != "PLAIN" {
			continue // one wrong-password case is enough; each costs retries
		}
		props["sasl.password"] = "pw-wrong-" + u.user
		shortCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
		_, err := clusters.BrokerCount(shortCtx, c)
		cancel()
		if err == nil {
			t.Errorf("%s: BrokerCount with a wrong password succeeded", u.mech)
		} else if strings.Contains(err.Error(), "pw-wrong") {
			t.Errorf("%s: error leaks the password: %v", u.mech, err)
		}
	}
	// Without SASL props the cluster refuses to answer.
	shortCtx, cancel2 := context.WithTimeout(ctx, 3*time.Second)
	defer cancel2()
	if _, err := clusters.BrokerCount(shortCtx, clusters.Cluster{Bootstrap: addrs}); err == nil {
		t.Error("BrokerCount without credentials succeeded")
	}
}

func TestUnsupportedSecurityProps(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		props map[string]string
		want  string
	}{
		{map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "OAUTHBEARER"},
			"sasl.mechanism OAUTHBEARER is unsupported by the loader"},
		{map[string]string{"security.protocol": "SASL_PLAINTEXT"},
			"sasl.mechanism GSSAPI is unsupported by the loader"},
		{map[string]string{"security.protocol": "SSL", "ssl.key.password": "x"},
			"ssl.key.password (encrypted private keys) is unsupported by the loader"},
		{map[string]string{"security.protocol": "SSL", "ssl.ca.location": "/nonexistent/ca.pem"},
			"ssl.ca.location: open /nonexistent/ca.pem"},
		{map[string]string{"security.protocol": "SSL", "ssl.certificate.pem": "x"},
			"a client certificate needs both ssl.certificate.* and ssl.key.*"},
		{map[string]string{"security.protocol": "kerberos"},
			`security.protocol "KERBEROS" is unknown`},
	}
	for _, k := range cases {
		_, err := clusters.BrokerCount(ctx, clusters.Cluster{Bootstrap: []string{"127.0.0.1:1"}, Props: k.props})
		if err == nil || !strings.HasPrefix(err.Error(), k.want) {
			t.Errorf("props %v: %v, want prefix %q", k.props, err, k.want)
		}
	}
}

// testCerts writes a CA and returns it with a server certificate for the
// name broker.test only (no IP address), signed by that CA.
func testCerts(t *testing.T) (caFile string, server tls.Certificate) {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "fplab test CA"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(time.Hour),
		IsCA:                  true,
		KeyUsage:              x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	srvKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	srvTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "broker.test"},
		DNSNames:     []string{"broker.test"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	srvDER, err := x509.CreateCertificate(rand.Reader, srvTmpl, ca, &srvKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caFile = filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return caFile, tls.Certificate{Certificate: [][]byte{srvDER}, PrivateKey: srvKey}
}

func TestTLSProps(t *testing.T) {
	caFile, server := testCerts(t)
	addrs := clusterstest.InProcess(t, kfake.TLS(&tls.Config{Certificates: []tls.Certificate{server}, MinVersion: tls.VersionTLS12})).ListenAddrs()
	// A refused handshake is retried until the deadline, so the cases that
	// must fail get a short one (no answer can turn a refusal into
	// success); those that must pass get the fail-safe, so that a loaded
	// machine cannot fail them.
	count := func(props map[string]string, mustFail bool) error {
		limit := failSafe
		if mustFail {
			limit = 5 * time.Second
		}
		ctx, cancel := context.WithTimeout(t.Context(), limit)
		defer cancel()
		n, err := clusters.BrokerCount(ctx, clusters.Cluster{Bootstrap: addrs, Props: props})
		if err == nil && n != 1 {
			t.Errorf("props %v: BrokerCount = %d, want 1", props, n)
		}
		return err
	}
	// The certificate names broker.test, not 127.0.0.1: host name checking
	// must fail, chain-only checking must pass, an unknown CA must fail.
	if err := count(map[string]string{"security.protocol": "SSL", "ssl.ca.location": caFile}, true); err == nil {
		t.Error("TLS with host name check passed for a certificate of another name")
	}
	if err := count(map[string]string{"security.protocol": "SSL", "ssl.ca.location": caFile,
		"ssl.endpoint.identification.algorithm": "none"}, false); err != nil {
		t.Errorf("TLS with the CA and no host name check: %v", err)
	}
	if err := count(map[string]string{"security.protocol": "SSL",
		"ssl.endpoint.identification.algorithm": "none"}, true); err == nil {
		t.Error("TLS passed without the CA")
	}
	if err := count(map[string]string{"security.protocol": "SSL",
		"enable.ssl.certificate.verification": "false"}, false); err != nil {
		t.Errorf("TLS without verification: %v", err)
	}
}

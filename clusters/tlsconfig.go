package clusters

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"strings"
)

// tlsConfig maps librdkafka's ssl.* properties: ssl.ca.location or
// ssl.ca.pem, ssl.certificate.location/ssl.key.location or their .pem
// forms, ssl.endpoint.identification.algorithm (https or none) and
// enable.ssl.certificate.verification. Encrypted keys (ssl.key.password)
// are unsupported by the loader.
func (c Cluster) tlsConfig() (*tls.Config, error) {
	p := c.Props
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	if p["ssl.key.password"] != "" {
		return nil, fmt.Errorf("ssl.key.password (encrypted private keys) is unsupported by the loader")
	}
	caPEM, err := pemProp(p, "ssl.ca.pem", "ssl.ca.location")
	if err != nil {
		return nil, err
	}
	if caPEM != nil {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(caPEM) {
			return nil, fmt.Errorf("ssl.ca.pem/ssl.ca.location holds no PEM certificate")
		}
		tc.RootCAs = pool
	}
	certPEM, err := pemProp(p, "ssl.certificate.pem", "ssl.certificate.location")
	if err != nil {
		return nil, err
	}
	keyPEM, err := pemProp(p, "ssl.key.pem", "ssl.key.location")
	if err != nil {
		return nil, err
	}
	if (certPEM == nil) != (keyPEM == nil) {
		return nil, fmt.Errorf("a client certificate needs both ssl.certificate.* and ssl.key.*")
	}
	if certPEM != nil {
		pair, err := tls.X509KeyPair(certPEM, keyPEM)
		if err != nil {
			// The error of X509KeyPair describes the PEM structure, never key bytes.
			return nil, fmt.Errorf("client certificate/key: %w", err)
		}
		tc.Certificates = []tls.Certificate{pair}
	}

	verify := !strings.EqualFold(strings.TrimSpace(p["enable.ssl.certificate.verification"]), "false")
	hostCheck := !strings.EqualFold(strings.TrimSpace(p["ssl.endpoint.identification.algorithm"]), "none")
	switch {
	case !verify:
		tc.InsecureSkipVerify = true
	case !hostCheck:
		// Verify the chain but not the host name, as librdkafka does.
		tc.InsecureSkipVerify = true
		tc.VerifyConnection = chainVerifier(tc.RootCAs)
	}
	return tc, nil
}

// pemProp returns the inline PEM value of pemKey, else the contents of the
// file named by fileKey, else nil.
func pemProp(p map[string]string, pemKey, fileKey string) ([]byte, error) {
	if v := p[pemKey]; v != "" {
		return []byte(v), nil
	}
	path := p[fileKey]
	if path == "" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", fileKey, err)
	}
	return b, nil
}

// chainVerifier checks the peer's chain against roots (system roots when
// nil) without checking the host name.
func chainVerifier(roots *x509.CertPool) func(tls.ConnectionState) error {
	return func(cs tls.ConnectionState) error {
		if len(cs.PeerCertificates) == 0 {
			return fmt.Errorf("broker sent no certificate")
		}
		inter := x509.NewCertPool()
		for _, c := range cs.PeerCertificates[1:] {
			inter.AddCert(c)
		}
		_, err := cs.PeerCertificates[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter})
		return err
	}
}

package jvmref

import (
	"fmt"
	"strings"
)

// javaSecurity renders the SASL/PLAIN client properties a cluster with
// users hands its cells (security.protocol, sasl.mechanism(s),
// sasl.username, sasl.password, librdkafka's names) as the Java client's
// (a JAAS line); no props, no lines. Anything else is refused.
func javaSecurity(props map[string]string) (string, error) {
	if len(props) == 0 {
		return "", nil
	}
	mech := props["sasl.mechanism"]
	if mech == "" {
		mech = props["sasl.mechanisms"]
	}
	for k := range props {
		switch k {
		case "security.protocol", "sasl.mechanism", "sasl.mechanisms", "sasl.username", "sasl.password":
		default:
			return "", fmt.Errorf("path=java: cluster prop %q has no Java client equivalent here (only SASL_PLAINTEXT with PLAIN)", k)
		}
	}
	user, pass := props["sasl.username"], props["sasl.password"]
	if props["security.protocol"] != "SASL_PLAINTEXT" || mech != "PLAIN" || user == "" ||
		strings.ContainsAny(user+pass, "\"\\\n") {
		return "", fmt.Errorf("path=java: only security.protocol=SASL_PLAINTEXT with sasl.mechanism=PLAIN and a plain user and password are translated")
	}
	return fmt.Sprintf("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"%s\" password=\"%s\";\n", user, pass), nil
}

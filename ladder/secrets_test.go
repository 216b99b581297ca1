package ladder

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
)

func TestRungArgsHoldNoSecret(t *testing.T) {
	s := &Spec{Partitions: 1, Records: 10, Seed: 1, Schema: "bid", Timeout: 10 * time.Second,
		ClusterProps: map[string]string{"security.protocol": "SASL_SSL", "sasl.password": "pw-Alpha", "ssl.key.password": "pw-Bravo"}}
	e := Entry{Cell: cell.Cell{Path: "fast", Format: "json", Batch: 8, Brokers: 1, Alloc: "go", Cluster: "external"}}
	args := strings.Join(rungArgs(s, e, []string{"k:9093"}, "t", ""), " ")
	if strings.Contains(args, "pw-") || !strings.Contains(args, "--secrets-fd 3") || !strings.Contains(args, "security.protocol=SASL_SSL") {
		t.Errorf("argv %s: want public props, --secrets-fd 3 and no secret", args)
	}
	want := map[string]string{"sasl.password": "pw-Alpha", "ssl.key.password": "pw-Bravo"}
	if got := rungSecrets(s, e, nil); !reflect.DeepEqual(got, want) {
		t.Errorf("rungSecrets = %v, want %v", got, want)
	}
	e.Cell.Cluster = "embedded"
	if got := rungSecrets(s, e, nil); got != nil {
		t.Errorf("an embedded cell gets secrets %v", got)
	}
}

// TestRunChildPassesSecretsOnFD3 reads what the child finds on fd 3.
func TestRunChildPassesSecretsOnFD3(t *testing.T) {
	secrets := map[string]string{"sasl.password": "pw-Alpha"}
	res := runChild(context.Background(), childCmd{Bin: "sh", Args: []string{"-c", "cat <&3"}, Timeout: 30 * time.Second, Secrets: secrets})
	if res.StartErr != nil || res.Exit != 0 {
		t.Fatalf("child: start %v, exit %d, stderr %s", res.StartErr, res.Exit, res.StderrTail)
	}
	var got map[string]string
	if err := json.Unmarshal(res.Stdout, &got); err != nil || !reflect.DeepEqual(got, secrets) {
		t.Errorf("child read %q (%v), want %v", res.Stdout, err, secrets)
	}
}

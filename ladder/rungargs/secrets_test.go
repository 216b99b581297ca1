package rungargs_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rungargs"
)

// parseArgsMain is the child of the secrets tests: it parses its flags,
// reports whether the secrets descriptor was closed, and prints the props.
func parseArgsMain(args []string) int {
	c, err := rungargs.Parse(args, io.Discard)
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		return 1
	}
	var st syscall.Stat_t
	closed := errors.Is(syscall.Fstat(rungargs.SecretsFD, &st), syscall.EBADF)
	_ = json.NewEncoder(os.Stdout).Encode(struct {
		Props  map[string]string
		Closed bool
	}{c.Props, closed})
	return 0
}

var pipeSecrets = map[string]string{
	"sasl.username":    "user-Kilo",
	"sasl.password":    "pw-Alpha",
	"ssl.key.password": "pw-Bravo",
	"sasl.jaas.config": `org.apache.kafka.common.security.plain.PlainLoginModule required password="pw-Charlie";`,
}

func secretCell() rungargs.Cell {
	props := map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "PLAIN"}
	for k, v := range pipeSecrets {
		props[k] = v
	}
	return rungargs.Cell{Cell: cell.Cell{Path: "fast", Format: "json", Batch: 8, Brokers: 1, Alloc: "go", Cluster: "external"},
		Bootstrap: []string{"k:9093"}, Topic: "t", Partitions: 1, Records: 1, Seed: 1, Schema: "bid",
		Timeout: time.Second, Props: props}
}

func TestArgsHoldNoSecret(t *testing.T) {
	c := secretCell()
	args := strings.Join(c.Args(), " ")
	for k, v := range pipeSecrets {
		if strings.Contains(args, v) || strings.Contains(args, k) {
			t.Errorf("argv carries %s: %s", k, args)
		}
	}
	for _, want := range []string{"--cluster-prop sasl.mechanism=PLAIN --cluster-prop security.protocol=SASL_SSL", "--secrets-fd 3"} {
		if !strings.Contains(args, want) {
			t.Errorf("argv %s lacks %q", args, want)
		}
	}
	c.Props = map[string]string{"security.protocol": "SSL"}
	if args := strings.Join(c.Args(), " "); strings.Contains(args, "--secrets-fd") {
		t.Errorf("a cell without secrets announces a secrets descriptor: %s", args)
	}
	if files, err := c.SecretFiles(); files != nil || err != nil {
		t.Errorf("SecretFiles without secrets = %v, %v", files, err)
	}
}

// parseArgsChild runs parse-args with args and files as fds 3, 4, ...
func parseArgsChild(t *testing.T, args []string, files []*os.File) (stdout, stderr string, err error) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// Through the child wrapper, as the ladder starts its children (under
	// emulation the wrapper is qemu).
	argv := rungargs.WrapArgv(append([]string{exe, "parse-args"}, args...))
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.ExtraFiles = files
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Start()
	for _, f := range files {
		f.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	return o.String(), e.String(), err
}

func TestSecretsReachTheChildOnAPipe(t *testing.T) {
	c := secretCell()
	files, err := c.SecretFiles()
	if err != nil || len(files) != 1 {
		t.Fatalf("SecretFiles = %v, %v", files, err)
	}
	stdout, stderr, err := parseArgsChild(t, c.Args(), files)
	if err != nil {
		t.Fatalf("child: %v\n%s", err, stderr)
	}
	var got struct {
		Props  map[string]string
		Closed bool
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("child output %q: %v", stdout, err)
	}
	if !reflect.DeepEqual(got.Props, c.Props) {
		t.Errorf("child props %v, want %v", got.Props, c.Props)
	}
	if !got.Closed {
		t.Error("the child left the secrets descriptor open")
	}
}

func TestSecretsDescriptorErrors(t *testing.T) {
	c := secretCell()
	// Announced but not passed.
	_, stderr, err := parseArgsChild(t, c.Args(), nil)
	if err == nil || !strings.Contains(stderr, "--secrets-fd 3 was not passed") {
		t.Errorf("no descriptor: err %v, stderr %q", err, stderr)
	}
	// Not JSON: the error must not quote what it read.
	r, w, perr := os.Pipe()
	if perr != nil {
		t.Fatal(perr)
	}
	w.WriteString("pw-Zulu")
	w.Close()
	_, stderr, err = parseArgsChild(t, c.Args(), []*os.File{r})
	if err == nil || !strings.Contains(stderr, "does not hold a JSON object") || strings.Contains(stderr, "Zulu") {
		t.Errorf("bad payload: err %v, stderr %q", err, stderr)
	}
	// A secret both on the command line and on the pipe.
	files, ferr := c.SecretFiles()
	if ferr != nil {
		t.Fatal(ferr)
	}
	_, stderr, err = parseArgsChild(t, append(c.Args(), "--cluster-prop", "sasl.password=x"), files)
	if err == nil || !strings.Contains(stderr, `"sasl.password" given both`) {
		t.Errorf("duplicate: err %v, stderr %q", err, stderr)
	}
}

func TestRedactedPlaceholderIsRefused(t *testing.T) {
	_, err := rungargs.Parse([]string{"--bootstrap", "h:1", "--topic", "t", "--records", "1",
		"--cluster-prop", "sasl.password=REDACTED"}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "sasl.password") || !strings.Contains(err.Error(), "placeholder") {
		t.Errorf("err = %v, want the placeholder refused", err)
	}
}

package jvmref

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunTempFiles: the JVM gets a temporary directory of its own
// (-Djava.io.tmpdir) that is gone once Run returns, even when the
// program fails. The "java" here is a script that leaves a file there.
func TestRunTempFiles(t *testing.T) {
	dir := t.TempDir()
	jar := filepath.Join(dir, "refs.jar")
	seen := filepath.Join(dir, "tmpdir")
	java := filepath.Join(dir, "java")
	script := "#!/bin/sh\nfor a; do case $a in -Djava.io.tmpdir=*) d=${a#*=};; esac; done\n" +
		"echo x > \"$d/flink-rpc.jar\" && printf %s \"$d\" > " + seen + "\necho 'fplab: failed on purpose' >&2\nexit 3\n"
	if err := os.WriteFile(jar, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(java, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), java, jar, Opts{Program: Flink, Bootstrap: []string{"127.0.0.1:1"},
		Topic: "t", Partitions: 1, Records: 1, Format: "json", Timeout: 30 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "failed on purpose") {
		t.Fatalf("Run = %v, want the script's failure", err)
	}
	tmp, rerr := os.ReadFile(seen)
	if rerr != nil || !strings.Contains(string(tmp), "fplab-jvm-") {
		t.Fatalf("the JVM was given no temporary directory of its own: %q, %v", tmp, rerr)
	}
	if _, err := os.Stat(string(tmp)); !os.IsNotExist(err) {
		t.Errorf("temporary directory %s left after the run: %v", tmp, err)
	}
}

func TestFailureLine(t *testing.T) {
	for in, want := range map[string]string{
		"":               "no output on stderr",
		"a\nb\n\nc\nd\n": "b | c | d",
		"[x] WARN a\nfplab: steady: read 9 records, expected 10\n": "fplab: steady: read 9 records, expected 10",
	} {
		if got := failureLine(in); got != want {
			t.Errorf("failureLine(%q) = %q, want %q", in, got, want)
		}
	}
}

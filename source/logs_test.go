package source_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

const logChildEnv = "FPLAB_SOURCE_LOG_CHILD"

// TestNoLibrdkafkaLinesOnStderr opens each librdkafka path against a
// closed port in a child process: librdkafka logs the refused connection,
// but only the lab's own error may reach the child's stderr.
func TestNoLibrdkafkaLinesOnStderr(t *testing.T) {
	if os.Getenv(logChildEnv) == "1" {
		logChild()
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestNoLibrdkafkaLinesOnStderr$")
	cmd.Env = append(os.Environ(), logChildEnv+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("child: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	if stderr.Len() != 0 {
		t.Errorf("librdkafka wrote to stderr:\n%s", stderr.String())
	}
	for _, p := range []consume.Path{consume.PathRowwise, consume.PathShallow, consume.PathFast} {
		if want := fmt.Sprintf("path=%s: metadata from 127.0.0.1:1:", p); !strings.Contains(stdout.String(), want) {
			t.Errorf("child output lacks %q:\n%s", want, stdout.String())
		}
	}
}

// logChild opens the librdkafka paths against a closed port and prints
// their errors on stdout.
func logChild() {
	s, _ := workloads.SchemaByName("bid")
	codec, _ := workloads.NewCodec(workloads.FormatJSON, s)
	for _, p := range []consume.Path{consume.PathRowwise, consume.PathShallow, consume.PathFast} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		r, err := source.Open(ctx, source.Config{
			Path: p, Bootstrap: []string{"127.0.0.1:1"}, Topic: "t", Partitions: 1, Batch: 8,
			Codec: codec, Mem: memory.NewGoAllocator(), Timeout: time.Second,
		})
		cancel()
		if err == nil {
			r.Close()
		}
		fmt.Printf("path=%s: %v\n", p, err)
	}
}

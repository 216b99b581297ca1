package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fastpathlab/fplab/cell"
)

// maxSecretsBytes bounds a secrets file: a few client properties, never
// megabytes (a wrong file named by mistake is refused, not read whole).
const maxSecretsBytes = 64 << 10

// readSecrets reads the secret cluster props handed again to a resume
// (--secrets): key=value lines, blank lines and # comments skipped, from
// the file at path or from stdin for "-". Errors name the source and the
// line, never a value.
func readSecrets(path string, stdin io.Reader) (map[string]string, error) {
	src, name := stdin, "stdin"
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("secrets: %w", err)
		}
		defer f.Close()
		src, name = f, path
	}
	data, err := io.ReadAll(io.LimitReader(src, maxSecretsBytes+1))
	if err != nil {
		return nil, fmt.Errorf("secrets %s: %w", name, err)
	}
	if len(data) > maxSecretsBytes {
		return nil, fmt.Errorf("secrets %s: more than %d bytes; want a few key=value lines", name, maxSecretsBytes)
	}
	out := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(make([]byte, 0, 4096), maxSecretsBytes)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		// Every line may hold a secret: an error quotes none of it.
		k, v, ok := strings.Cut(text, "=")
		k = strings.TrimSpace(k)
		switch {
		case !ok || k == "":
			return nil, fmt.Errorf("secrets %s:%d: not key=value", name, line)
		case !cell.IsSecretKey(k):
			return nil, fmt.Errorf("secrets %s:%d: %s is not a secret client property (%s)", name, line, k, "a resume takes every other prop from its run directory")
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("secrets %s:%d: %s given twice", name, line, k)
		}
		out[k] = v
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("secrets %s: no key=value line", name)
	}
	return out, nil
}

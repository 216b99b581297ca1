package rungargs

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/fastpathlab/fplab/cell"
)

// SecretsFD is the descriptor on which a child reads its secret cluster
// props: the first of exec.Cmd.ExtraFiles. Secrets never go on the command
// line (ps shows it to every user) or in the environment (so does ps e).
const SecretsFD = 3

// maxSecrets bounds what a child reads from the secrets descriptor.
const maxSecrets = 1 << 20

// SecretFiles returns the files a child started with c.Args() must inherit
// (exec.Cmd.ExtraFiles, so the first is SecretsFD): the read end of a pipe
// carrying c's secret props. It returns nil when c has none. The caller
// closes the files once the child has started.
func (c *Cell) SecretFiles() ([]*os.File, error) {
	_, secrets := cell.SplitSecrets(c.Props)
	return SecretPipe(secrets)
}

// SecretPipe returns the read end of a pipe holding secrets as one JSON
// object, or nil when there are none. A goroutine writes it and ends once
// the child has read it or every read end is closed (the child exited and
// the caller closed its copy after starting the child), so a large value
// (a PEM bundle) cannot block the caller on a full pipe.
func SecretPipe(secrets map[string]string) ([]*os.File, error) {
	if len(secrets) == 0 {
		return nil, nil
	}
	data, err := json.Marshal(secrets)
	if err != nil {
		return nil, fmt.Errorf("encode secret props: %w", err)
	}
	if len(data) > maxSecrets {
		return nil, fmt.Errorf("secret props take %d bytes, more than the %d a child reads", len(data), maxSecrets)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("secrets pipe: %w", err)
	}
	go func() {
		_, _ = w.Write(data)
		w.Close()
	}()
	return []*os.File{r}, nil
}

// readSecrets reads the JSON object a parent wrote with SecretPipe from the
// inherited descriptor fd, and closes it. Its errors never quote the data.
func readSecrets(fd int) (map[string]string, error) {
	// A parent that announced the descriptor but did not pass it leaves
	// fd free, or in use by this process's runtime: check before taking it.
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, fmt.Errorf("--secrets-fd %d was not passed (no open pipe there): %w", fd, err)
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return nil, fmt.Errorf("--secrets-fd %d was not passed (no open pipe there)", fd)
	}
	f := os.NewFile(uintptr(fd), "secrets")
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSecrets+1))
	if err != nil {
		return nil, fmt.Errorf("--secrets-fd %d (the parent passes secret cluster props on it): %w", fd, err)
	}
	if len(data) > maxSecrets {
		return nil, fmt.Errorf("--secrets-fd %d holds more than %d bytes", fd, maxSecrets)
	}
	var m map[string]string
	if err := json.Unmarshal(data, &m); err != nil || m == nil {
		// The JSON error could quote a character of a secret.
		return nil, fmt.Errorf("--secrets-fd %d does not hold a JSON object of strings (%d bytes)", fd, len(data))
	}
	return m, nil
}

// mergeSecrets adds the props read from the secrets descriptor to the ones
// given on the command line.
func mergeSecrets(props, secrets map[string]string) (map[string]string, error) {
	if props == nil {
		props = make(map[string]string, len(secrets))
	}
	for k, v := range secrets {
		if _, dup := props[k]; dup {
			return nil, fmt.Errorf("cluster prop %q given both as --cluster-prop and on --secrets-fd", k)
		}
		props[k] = v
	}
	return props, nil
}

// checkNotRedacted refuses a secret prop that holds the redaction
// placeholder: it came from a manifest (which never holds secrets), and
// would fail later as a puzzling authentication error.
func checkNotRedacted(props map[string]string) error {
	for _, k := range sortedKeys(props) {
		if props[k] == cell.Redacted && cell.IsSecretKey(k) {
			return fmt.Errorf("cluster prop %s is %q, the placeholder a run directory keeps instead of the secret: pass the secret itself", k, cell.Redacted)
		}
	}
	return nil
}

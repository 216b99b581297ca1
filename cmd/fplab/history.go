package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/internal/oneline"
	"github.com/fastpathlab/fplab/results"
)

// The history commands live in their own binary, fplab-history
// (cmd/fplab-history): the database drivers, the site's renderer and
// the statistics they link would otherwise load into every measured
// child, which runs this binary. Linked in, they grew it from 67 to 84 MB
// and every smoke cell's harness RSS from 48.8 to 57-60 MB (the
// repository's own history found it: docs/history.md). fplab history
// forwards to it.

// historyBinary is fplab-history beside this executable, or on $PATH.
func historyBinary() (string, error) {
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), "fplab-history")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	if p, err := exec.LookPath("fplab-history"); err == nil {
		return p, nil
	}
	return "", errors.New("fplab-history is not beside fplab nor on $PATH (make build-go builds it)")
}

// runHistory runs fplab-history with args, its output passed through.
func runHistory(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	bin, err := historyBinary()
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdin, cmd.Stdout = os.Stdin, stdout
	var errs bytes.Buffer
	cmd.Stderr = io.MultiWriter(stderr, &errs)
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		// fplab-history said why on stderr, with its prefix.
		return errPrinted{code: ee.ExitCode()}
	}
	return err
}

// errPrinted is a failure the child already printed: run exits with its
// status and prints nothing more.
type errPrinted struct{ code int }

func (e errPrinted) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// historyStore is the store --history names: "off" is none; empty is
// $FPLAB_HISTORY, else results/history.sqlite when that file is there.
func historyStore(flag string) string {
	switch flag {
	case "off":
		return ""
	case "":
		if s := os.Getenv("FPLAB_HISTORY"); s != "" {
			return s
		}
		if _, err := os.Stat(results.DefaultHistory); err == nil {
			return results.DefaultHistory
		}
		return ""
	}
	return flag
}

// againstHistory asks fplab-history where run's figures stand against the
// last 10 runs of each cell on its host in the store flag names, as text
// or Markdown ("" without a store).
func againstHistory(ctx context.Context, flag, runDir string, markdown bool) (string, error) {
	store := historyStore(flag)
	if store == "" {
		return "", nil
	}
	bin, err := historyBinary()
	if err != nil {
		return "", err
	}
	format := "text"
	if markdown {
		format = "md"
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	var out, errs bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, "--store", store, "against", "--format", format, runDir)
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("history: %v: %s", err, oneline.Err(errors.New(strings.TrimSpace(errs.String()))))
	}
	return out.String(), nil
}

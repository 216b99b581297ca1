package ladder

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/results"
)

func TestResumeOptions(t *testing.T) {
	yes, no := true, false
	pinned := storedSpec{Pinning: Pinning{On: true, Method: "taskset", BrokerCPUs: "0", CellCPUs: "1"}, Profile: &yes}
	cases := []struct {
		name string
		st   storedSpec
		opt  Options
		want Options
		err  string
	}{
		{name: "none given: the run's own", st: pinned, opt: Options{},
			want: Options{BrokerCPUs: "0", CellCPUs: "1", Profile: true}},
		{name: "the same given", st: pinned, opt: Options{BrokerCPUs: "0", CellCPUs: "1", Profile: true},
			want: Options{BrokerCPUs: "0", CellCPUs: "1", Profile: true}},
		{name: "other cell cpus", st: pinned, opt: Options{BrokerCPUs: "0", CellCPUs: "0"},
			err: `resume: --cell-cpus "0" differs from the run's "1"`},
		{name: "pinning an unpinned run", st: storedSpec{Profile: &no}, opt: Options{BrokerCPUs: "0"},
			err: `resume: --broker-cpus "0" differs from the run's none`},
		{name: "profiling an unprofiled run", st: storedSpec{Profile: &no}, opt: Options{Profile: true},
			err: `resume: --profile "on" differs from the run's "off"`},
		{name: "a run recorded before profiling was", st: storedSpec{}, opt: Options{Profile: true},
			want: Options{Profile: true}},
	}
	for _, c := range cases {
		got, err := resumeOptions(c.st, c.opt)
		switch {
		case c.err != "":
			if err == nil || !strings.HasPrefix(err.Error(), c.err) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: err %v, want %q...", c.name, err, c.err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case got.BrokerCPUs != c.want.BrokerCPUs || got.CellCPUs != c.want.CellCPUs || got.Profile != c.want.Profile:
			t.Errorf("%s: options %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestResumeKeepsPinningAndProfiling stops a pinned, profiled run part-way
// and resumes it with no options: every row, the resumed ones included, ran
// on the recorded CPU and was profiled; a resume with another CPU list is
// refused and runs nothing.
func TestResumeKeepsPinningAndProfiling(t *testing.T) {
	s := mustSpec(t, runnerSpec)
	bin := fakeBinDir(t, "go", "mimalloc2")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const k = 5
	n := 0
	dir, err := Run(ctx, Options{
		Spec: s, BinDir: bin, Root: t.TempDir(), Progress: &bytes.Buffer{}, Infra: &fakeInfra{},
		ChildEnv: fakeEnv(""), CellCPUs: "0", Profile: true,
		AfterRow: func(results.Row) {
			if n++; n == k {
				cancel()
			}
		},
	})
	if err == nil || dir == "" {
		t.Fatalf("stopped run: dir %q err %v", dir, err)
	}

	infra := &fakeInfra{}
	_, err = Resume(context.Background(), dir, Options{BinDir: bin, Progress: &bytes.Buffer{}, Infra: infra, ChildEnv: fakeEnv(""), CellCPUs: "0-1"})
	if err == nil || !strings.Contains(err.Error(), `--cell-cpus "0-1" differs from the run's "0"`) {
		t.Fatalf("resume with other cpus: %v", err)
	}
	if len(infra.started) != 0 || len(readJournal(t, dir)) != k {
		t.Fatalf("a refused resume ran something: started %v", infra.started)
	}

	if _, err := Resume(context.Background(), dir, Options{BinDir: bin, Progress: &bytes.Buffer{}, Infra: &fakeInfra{}, ChildEnv: fakeEnv("")}); err != nil {
		t.Fatal(err)
	}
	rows := readJournal(t, dir)
	if len(rows) <= k {
		t.Fatalf("resume journaled nothing (%d rows)", len(rows))
	}
	for _, r := range rows {
		if r.Config["cpus"] != "0" {
			t.Errorf("%s rep %d ran on cpus %q, want the run's 0", r.Cell, r.Rep, r.Config["cpus"])
		}
		if r.Rep < 0 {
			continue
		}
		cpu, mem := ProfilePaths(dir, r.Cell, r.Rep)
		for _, f := range []string{cpu, mem} {
			if _, err := os.Stat(f); err != nil {
				t.Errorf("%s rep %d: no profile: %v", r.Cell, r.Rep, err)
			}
		}
	}
}

// TestFailedCellKeepsNoProfile: a profiled cell that fails leaves no
// profile cut short, which pprof could not read.
func TestFailedCellKeepsNoProfile(t *testing.T) {
	s := mustSpec(t, runnerSpec)
	dir, err := Run(context.Background(), Options{
		Spec: s, BinDir: fakeBinDir(t, "go", "mimalloc2"), Root: t.TempDir(), Progress: &bytes.Buffer{},
		Infra: &fakeInfra{}, ChildEnv: fakeEnv("rowwise=fail"), Profile: true,
	})
	if err == nil {
		t.Fatal("a run with failed cells succeeded")
	}
	var failed, kept int
	for _, r := range readJournal(t, dir) {
		cpu, _ := ProfilePaths(dir, r.Cell, r.Rep)
		_, serr := os.Stat(cpu)
		switch {
		case !r.OK:
			failed++
			if serr == nil {
				t.Errorf("failed %s rep %d kept its profile", r.Cell, r.Rep)
			}
		case serr == nil:
			kept++
		}
	}
	if failed == 0 || kept == 0 {
		t.Fatalf("%d failed rows, %d kept profiles: the test proves nothing", failed, kept)
	}
	// Nor did their warm-up rounds (rep -1) keep any.
	for _, r := range readJournal(t, dir) {
		if r.OK {
			continue
		}
		cpu, mem := ProfilePaths(dir, r.Cell, -1)
		for _, f := range []string{cpu, mem} {
			if _, err := os.Stat(f); err == nil {
				t.Errorf("failed %s kept its warm-up profile %s", r.Cell, filepath.Base(f))
			}
		}
	}
}

const externalSpec = `name: external
path: [fast, franz]
format: [json]
batch: [8192]
brokers: [1]
alloc: [go]
crc: [off]
cluster: [external]
bootstrap: ["127.0.0.1:1"]
cluster_props: {security.protocol: SASL_SSL, sasl.password: pw-Alpha}
records: 500
repetitions: 3
warmup: 0
timeout: 2s
seed: 3
calibrate: {path: fast, format: json, alloc: go}
`

// TestResumeHandsSecretsAgain: a run directory keeps no secret, so a resume
// of an external run with a secret cluster prop is refused until the secret
// is handed again, and then runs with it (and still writes none to disk).
func TestResumeHandsSecretsAgain(t *testing.T) {
	s := mustSpec(t, externalSpec)
	bin := fakeBinDir(t, "go")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	dir, err := Run(ctx, Options{
		Spec: s, BinDir: bin, Root: t.TempDir(), Progress: &bytes.Buffer{}, Infra: &fakeInfra{}, ChildEnv: fakeEnv(""),
		AfterRow: func(results.Row) {
			if n++; n == 2 {
				cancel()
			}
		},
	})
	if err == nil || dir == "" {
		t.Fatalf("stopped run: dir %q err %v", dir, err)
	}
	resume := func(secrets map[string]string) (*fakeInfra, error) {
		infra := &fakeInfra{}
		_, err := Resume(context.Background(), dir, Options{BinDir: bin, Progress: &bytes.Buffer{}, Infra: infra, ChildEnv: fakeEnv(""), Secrets: secrets})
		return infra, err
	}
	for _, c := range []struct {
		secrets map[string]string
		want    string
	}{
		{nil, "resume: the run directory keeps no secret, and its cluster needs sasl.password: hand them again with --secrets FILE"},
		{map[string]string{"sasl.password": "pw-Alpha", "ssl.key.password": "pw-Bravo"}, "resume: the secrets handed again name ssl.key.password, which is not"},
	} {
		infra, err := resume(c.secrets)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "pw-") {
			t.Errorf("resume with %d secrets: %v, want %q...", len(c.secrets), err, c.want)
		}
		if len(infra.started) != 0 || len(readJournal(t, dir)) != 2 {
			t.Fatalf("a refused resume ran something: %v", infra.started)
		}
	}
	infra, err := resume(map[string]string{"sasl.password": "pw-Alpha"})
	if err != nil {
		t.Fatal(err)
	}
	if len(infra.props) == 0 || infra.props[0]["sasl.password"] != "pw-Alpha" || infra.props[0]["security.protocol"] != "SASL_SSL" {
		t.Errorf("resumed cluster props %v, want the secret handed again", infra.props)
	}
	rows := readJournal(t, dir)
	for _, r := range rows {
		if !r.OK {
			t.Errorf("%s rep %d failed: %s", r.Cell, r.Rep, r.Reason)
		}
	}
	if len(rows) <= 2 {
		t.Errorf("resume journaled nothing")
	}
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if b, _ := os.ReadFile(p); bytes.Contains(b, []byte("pw-Alpha")) {
			t.Errorf("%s holds the secret", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestRunRefusesSecrets(t *testing.T) {
	root := t.TempDir()
	_, err := Run(context.Background(), Options{Spec: mustSpec(t, externalSpec), BinDir: fakeBinDir(t, "go"), Root: root, Infra: &fakeInfra{},
		Secrets: map[string]string{"sasl.password": "x"}})
	if err == nil || !strings.HasPrefix(err.Error(), "secrets are handed again only to a resume") {
		t.Errorf("Run with secrets: %v", err)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 {
		t.Errorf("a refused run left %v", ents)
	}
}

package ladder

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/fastpathlab/fplab/results"
)

// Run loads and expands the spec, checks everything that can be checked
// before a process starts (spec and its limits, allocator binaries, CPU
// lists, a writable run root), creates the run directory and runs the
// whole schedule. It returns the run directory, also when the run failed
// part-way (so the caller can Resume it); err is one line. A refused spec
// returns "" and leaves nothing on disk. A run that completes with failed
// cells returns a *FailedCellsError (ErrFailedCells); one stopped by its
// infrastructure an error matching ErrInfra.
func Run(ctx context.Context, opt Options) (string, error) {
	if opt.Secrets != nil {
		return "", errors.New("secrets are handed again only to a resume: a new run takes them from its spec's cluster_props")
	}
	spec := opt.Spec
	if spec == nil {
		if opt.SpecPath == "" {
			return "", errors.New("no spec given")
		}
		var err error
		if spec, err = LoadSpec(opt.SpecPath); err != nil {
			return "", err
		}
	}
	r, err := prepare(spec, opt)
	if err != nil {
		return "", err
	}
	host := results.HostFingerprint()
	dir, err := results.NewRunDir(r.opt.Root, host.Hostname, time.Now())
	if err != nil {
		return "", err
	}
	lock, err := lockRunDir(dir)
	if err != nil {
		return dir, err
	}
	defer lock.release()
	r.dir = dir
	commit, dirty := gitState(ctx)
	stored, err := encodeStored(spec, r.sch, opt)
	if err != nil {
		return dir, err
	}
	r.manifest = results.Manifest{
		Host: host, GoVersion: runtime.Version(), GitCommit: commit, GitDirty: dirty,
		Spec: stored, Start: time.Now(), AllocVersions: map[string]string{},
		Format: results.RunFormat,
	}
	r.manifest.Emulated, _ = results.DetectEmulation()
	if err := results.WriteManifest(dir, r.manifest); err != nil {
		return dir, err
	}
	return dir, r.execute(ctx, nil)
}

// Resume finishes the run in runDir: it rebuilds the spec and schedule from
// the manifest and runs exactly the measured cell-repetitions the journal
// does not hold yet (after the warm-up rounds again, if anything is left).
// Failed rows are outcomes and are not run again; a cell stopped by an
// infrastructure failure was never journaled, so it is. Only one ladder
// at a time owns a run directory: a second gets ErrLocked.
func Resume(ctx context.Context, runDir string, opt Options) (string, error) {
	if _, err := results.ReadManifest(runDir); err != nil {
		return runDir, err
	}
	lock, err := lockRunDir(runDir)
	if err != nil {
		return runDir, err
	}
	defer lock.release()
	// Read again under the lock: a previous owner rewrites it at its end.
	m, err := results.ReadManifest(runDir)
	if err != nil {
		return runDir, err
	}
	st, err := decodeStored(m.Spec)
	if err != nil {
		return runDir, err
	}
	if opt, err = resumeOptions(st, opt); err != nil {
		return runDir, err
	}
	if st.Spec.ClusterProps, err = restoreSecrets(st.Spec.ClusterProps, opt.Secrets); err != nil {
		return runDir, err
	}
	// The run's disk was checked when it started; what it wrote since is
	// in the free space it would see now, so a second check would count it
	// twice and could refuse to finish a run that fits.
	opt.freeDisk = -1
	r, err := prepare(st.Spec, opt)
	if err != nil {
		return runDir, err
	}
	r.dir, r.manifest = runDir, m
	if r.manifest.AllocVersions == nil {
		r.manifest.AllocVersions = map[string]string{}
	}
	if st.Profile == nil {
		// A run recorded before its profiling was: from now on it is.
		if r.manifest.Spec, err = encodeStored(st.Spec, r.sch, opt); err != nil {
			return runDir, err
		}
	}
	var rows []results.Row
	if _, serr := os.Stat(filepath.Join(runDir, results.JournalFile)); serr == nil {
		if rows, _, err = results.ReadJournal(filepath.Join(runDir, results.JournalFile)); err != nil {
			return runDir, err
		}
	}
	return runDir, r.execute(ctx, results.Finished(rows))
}

// prepare does the checks shared by Run and Resume.
func prepare(spec *Spec, opt Options) (*runner, error) {
	// A parsed spec passed these already; a spec built in code or stored
	// in a manifest is held to the same limits.
	if err := checkSpec(spec); err != nil {
		var se *SpecError
		if errors.As(err, &se) && se.File == "" {
			se.File = "spec " + spec.Name
		}
		return nil, err
	}
	sch, err := NewSchedule(spec)
	if err != nil {
		return nil, err
	}
	if opt, err = opt.withDefaults(spec); err != nil {
		return nil, err
	}
	mem := opt.memTotal
	if mem == 0 {
		mem = hostMemTotal()
	}
	free := opt.freeDisk
	if free == 0 {
		free = freeBytes(opt.Root)
	}
	err = checkHostMemory(spec, sch.Cells, mem)
	if err == nil {
		err = checkDisk(spec, sch.Cells, free)
	}
	if err != nil {
		var se *SpecError
		if errors.As(err, &se) && se.File == "" {
			se.File = opt.SpecPath
			if se.File == "" || opt.Spec != nil {
				se.File = "spec " + spec.Name
			}
		}
		return nil, err
	}
	bins, err := resolveBinaries(opt.BinDir, sch.Cells)
	if err != nil {
		return nil, err
	}
	if err := checkReferences(sch.Cells); err != nil {
		return nil, err
	}
	infra := opt.Infra
	if infra == nil {
		infra = &KafkaInfra{BrokerBin: bins["go"], CPUs: opt.BrokerCPUs}
	}
	return &runner{spec: spec, sch: sch, bins: bins, opt: opt, infra: infra}, nil
}

package results

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func TestManifestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2026, 12, 2, 10, 45, 0, 0, time.UTC)
	m := Manifest{
		Host:             Fingerprint{Hostname: "h", CPUModel: "Xeon", Cores: 2, Arch: "amd64", Kernel: "6.1.0", Governor: "performance", SMT: "off", THP: "madvise"},
		GoVersion:        "go1.26.8",
		Librdkafka:       "2.11.1",
		AllocVersions:    map[string]string{"go": "go1.26.8", "mimalloc2": "2.1.7"},
		GitCommit:        "0123abc",
		GitDirty:         true,
		Spec:             json.RawMessage(`{"reps":10}`),
		Start:            start,
		End:              start.Add(time.Hour),
		MeasuredFraction: 0.61,
		BuildFlags:       "-trimpath",
	}
	if err := WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	got, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	// MarshalIndent re-indents the spec; compare it compacted.
	var spec bytes.Buffer
	if err := json.Compact(&spec, got.Spec); err != nil {
		t.Fatal(err)
	}
	got.Spec = spec.Bytes()
	if !reflect.DeepEqual(got, m) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, m)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Name() != ManifestFile {
			t.Errorf("%s left behind beside the manifest", e.Name())
		}
	}
}

func TestManifestErrorsNameFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ManifestFile)
	if _, err := ReadManifest(dir); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("missing manifest: err = %v, want it to name %s", err, path)
	}
	os.WriteFile(path, []byte("{broken"), 0o644)
	if _, err := ReadManifest(dir); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("broken manifest: err = %v, want it to name %s", err, path)
	}
	if err := WriteManifest(filepath.Join(dir, "nope"), Manifest{}); err == nil || !strings.Contains(err.Error(), ManifestFile) {
		t.Errorf("unwritable dir: err = %v", err)
	}
}

func TestFingerprintFrom(t *testing.T) {
	fsys := fstest.MapFS{
		"proc/cpuinfo":                                         {Data: []byte("processor\t: 0\nmodel name\t: AMD EPYC  7B13\nprocessor\t: 1\nmodel name\t: AMD EPYC 7B13\n")},
		"sys/devices/system/cpu/online":                        {Data: []byte("0-3,6,8-9\n")},
		"proc/sys/kernel/osrelease":                            {Data: []byte("6.1.0-28-cloud-amd64\n")},
		"sys/devices/system/cpu/cpu0/cpufreq/scaling_governor": {Data: []byte("performance\n")},
		"sys/devices/system/cpu/smt/control":                   {Data: []byte("notsupported\n")},
		"sys/kernel/mm/transparent_hugepage/enabled":           {Data: []byte("always [madvise] never\n")},
	}
	got := fingerprintFrom(fsys, "amd64")
	want := Fingerprint{CPUModel: "AMD EPYC 7B13", Cores: 7, Arch: "amd64", Kernel: "6.1.0-28-cloud-amd64",
		Governor: "performance", SMT: "notsupported", THP: "madvise"}
	if got != want {
		t.Errorf("fingerprint = %+v\nwant %+v", got, want)
	}

	empty := fingerprintFrom(fstest.MapFS{}, "arm64")
	if empty.CPUModel != Unknown || empty.Kernel != Unknown || empty.Governor != Unknown || empty.SMT != Unknown || empty.THP != Unknown || empty.Cores != 0 {
		t.Errorf("empty fs: %+v, want unknown fields and 0 cores", empty)
	}
	arm := fingerprintFrom(fstest.MapFS{"proc/cpuinfo": {Data: []byte("processor\t: 0\nCPU part\t: 0xd0c\n")}}, "arm64")
	if arm.CPUModel != "CPU part 0xd0c" {
		t.Errorf("arm cpu model = %q", arm.CPUModel)
	}

	// The live host has at least an arch and a core count.
	live := HostFingerprint()
	if live.Arch == "" || live.Cores < 1 || live.Hostname == "" {
		t.Errorf("HostFingerprint = %+v", live)
	}
}

func TestFingerprintKeyAndComparable(t *testing.T) {
	a := Manifest{Host: Fingerprint{Hostname: "one", CPUModel: "Xeon", Cores: 2, Arch: "amd64", Kernel: "6.1", Governor: "powersave"}}
	b := a
	b.Host.Hostname, b.Host.Governor = "two", "performance"
	if a.Host.Key() != b.Host.Key() {
		t.Errorf("host name or governor changed the key: %s vs %s", a.Host.Key(), b.Host.Key())
	}
	if err := CheckComparable(a, b, false); err != nil {
		t.Errorf("same hardware refused: %v", err)
	}
	for _, tc := range []struct {
		field string
		mod   func(*Manifest)
	}{
		{"cpu model", func(m *Manifest) { m.Host.CPUModel = "EPYC" }},
		{"cores", func(m *Manifest) { m.Host.Cores = 4 }},
		{"arch", func(m *Manifest) { m.Host.Arch = "arm64" }},
		{"kernel", func(m *Manifest) { m.Host.Kernel = "6.12" }},
		{"emulated", func(m *Manifest) { m.Emulated = true }},
	} {
		c := a
		tc.mod(&c)
		err := CheckComparable(a, c, false)
		if err == nil || !strings.Contains(err.Error(), tc.field+" differs") {
			t.Errorf("%s: err = %v, want it to name the field", tc.field, err)
		}
		if tc.field != "emulated" && a.Host.Key() == c.Host.Key() {
			t.Errorf("%s: key did not change", tc.field)
		}
		if err := CheckComparable(a, c, true); err != nil {
			t.Errorf("%s: forced comparison refused: %v", tc.field, err)
		}
	}
}

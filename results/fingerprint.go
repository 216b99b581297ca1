package results

import (
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// Unknown stands for a host property that could not be read.
const Unknown = "unknown"

// Fingerprint describes the host a run measured on. CPUModel, Cores, Arch
// and Kernel decide whether two runs may be compared (see Key); the other
// fields are recorded so a reader can explain a difference.
type Fingerprint struct {
	Hostname string `json:"hostname"`
	CPUModel string `json:"cpu_model"`
	// Cores is the number of online logical CPUs.
	Cores  int    `json:"cores"`
	Arch   string `json:"arch"`
	Kernel string `json:"kernel"`
	// Governor is cpu0's cpufreq scaling governor.
	Governor string `json:"governor"`
	// SMT is "on", "off", "forceoff", "notsupported", ... as the kernel reports it.
	SMT string `json:"smt"`
	// THP is the selected transparent huge page mode (always, madvise, never).
	THP string `json:"thp"`
}

// HostFingerprint reads this host's fingerprint from /proc and /sys; fields
// that cannot be read are "unknown" (Cores falls back to runtime.NumCPU).
func HostFingerprint() Fingerprint {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = Unknown
	}
	f := fingerprintFrom(os.DirFS("/"), runtime.GOARCH)
	f.Hostname = host
	if f.Cores == 0 {
		f.Cores = runtime.NumCPU()
	}
	return f
}

// fingerprintFrom reads a fingerprint from a root file system (tests pass
// an fstest.MapFS). Hostname is left empty and Cores 0 when unknown.
func fingerprintFrom(root fs.FS, arch string) Fingerprint {
	return Fingerprint{
		CPUModel: cpuModel(readText(root, "proc/cpuinfo")),
		Cores:    countCPUs(readText(root, "sys/devices/system/cpu/online")),
		Arch:     arch,
		Kernel:   orUnknown(firstLine(readText(root, "proc/sys/kernel/osrelease"))),
		Governor: orUnknown(firstLine(readText(root, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"))),
		SMT:      orUnknown(firstLine(readText(root, "sys/devices/system/cpu/smt/control"))),
		THP:      orUnknown(selected(readText(root, "sys/kernel/mm/transparent_hugepage/enabled"))),
	}
}

// Key is what must match for two runs to be comparable: CPU model, cores,
// architecture and kernel. The host name is deliberately not part of it.
func (f Fingerprint) Key() string {
	return fmt.Sprintf("cpu=%s|cores=%d|arch=%s|kernel=%s", f.CPUModel, f.Cores, f.Arch, f.Kernel)
}

func readText(root fs.FS, name string) string {
	b, err := fs.ReadFile(root, name)
	if err != nil {
		return ""
	}
	return string(b)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(line)
}

func orUnknown(s string) string {
	if s == "" {
		return Unknown
	}
	return s
}

// cpuModel takes the first "model name" line of /proc/cpuinfo (x86), else
// the first "Hardware", "Processor" or "CPU part" line (arm).
func cpuModel(cpuinfo string) string {
	found := map[string]string{}
	for _, line := range strings.Split(cpuinfo, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.Join(strings.Fields(v), " ")
		if _, seen := found[k]; !seen && v != "" {
			found[k] = v
		}
	}
	for _, k := range []string{"model name", "Hardware", "Processor", "CPU part"} {
		if v, ok := found[k]; ok {
			if k == "CPU part" {
				return "CPU part " + v
			}
			return v
		}
	}
	return Unknown
}

// countCPUs counts a kernel CPU list such as "0-3,6,8-9"; 0 when unreadable.
func countCPUs(list string) int {
	list = firstLine(list)
	if list == "" {
		return 0
	}
	n := 0
	for _, part := range strings.Split(list, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return 0
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return 0
			}
		}
		n += b - a + 1
	}
	return n
}

// selected returns the bracketed choice of a sysfs mode list such as
// "always [madvise] never".
func selected(s string) string {
	s = firstLine(s)
	i := strings.IndexByte(s, '[')
	j := strings.IndexByte(s, ']')
	if i < 0 || j < i {
		return s
	}
	return s[i+1 : j]
}

// CheckComparable refuses to compare runs whose hosts differ in a field of
// Fingerprint.Key, or of which exactly one ran emulated, naming the first
// differing field; force turns the refusal off.
func CheckComparable(a, b Manifest, force bool) error {
	if force {
		return nil
	}
	fa, fb := a.Host, b.Host
	diffs := []struct {
		field  string
		va, vb string
	}{
		{"cpu model", fa.CPUModel, fb.CPUModel},
		{"cores", strconv.Itoa(fa.Cores), strconv.Itoa(fb.Cores)},
		{"arch", fa.Arch, fb.Arch},
		{"kernel", fa.Kernel, fb.Kernel},
		{"emulated", strconv.FormatBool(a.Emulated), strconv.FormatBool(b.Emulated)},
	}
	for _, d := range diffs {
		if d.va != d.vb {
			return fmt.Errorf("runs are not comparable: %s differs (%q vs %q); force to compare anyway", d.field, d.va, d.vb)
		}
	}
	return nil
}

package results

import (
	"os"
	"runtime"
	"strings"
)

// EmulationEnv, set to anything but "" or "0", declares that the process
// runs under an emulator (scripts/qemu-test.sh sets it for the arm64
// ladder under qemu-aarch64); it is inherited by the ladder's children.
const EmulationEnv = "FPLAB_EMULATED"

// DetectEmulation reports whether this process runs under a user-mode
// emulator, and why: EmulationEnv is set, or /proc/cpuinfo describes a CPU
// of another architecture than the binary's (qemu-user passes the host's
// cpuinfo through to the guest). A run it reports is marked Emulated in its
// manifest; its timings are never ARM (or x86) performance.
func DetectEmulation() (bool, string) {
	cpuinfo, _ := os.ReadFile("/proc/cpuinfo")
	return detectEmulation(os.Getenv(EmulationEnv), string(cpuinfo), runtime.GOARCH)
}

func detectEmulation(env, cpuinfo, goarch string) (bool, string) {
	if env != "" && env != "0" {
		return true, EmulationEnv + "=" + env
	}
	x86 := false
	arm := false
	for _, line := range strings.Split(cpuinfo, "\n") {
		k, _, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "vendor_id", "cpu family", "flags":
			x86 = true
		case "CPU implementer", "CPU architecture", "Features":
			arm = true
		}
	}
	switch {
	case goarch == "arm64" && x86 && !arm:
		return true, "arm64 binary on a CPU whose /proc/cpuinfo is x86's"
	case goarch == "amd64" && arm && !x86:
		return true, "amd64 binary on a CPU whose /proc/cpuinfo is ARM's"
	}
	return false, ""
}

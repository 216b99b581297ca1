package rungargs

import (
	"os"
	"strings"
)

// WrapperEnv names the environment variable whose value, split on spaces,
// prefixes every child process the lab starts (ladder cells, embedded
// brokers, checkpoint readers). scripts/qemu-test.sh sets it to
// "qemu-aarch64-static -L /usr/aarch64-linux-gnu" so an arm64 ladder under
// user-mode qemu can start arm64 children on a host without binfmt_misc.
// Unset or blank: argv is used as is.
const WrapperEnv = "FPLAB_CHILD_WRAPPER"

// WrapArgv prefixes argv with the wrapper from WrapperEnv, if any.
func WrapArgv(argv []string) []string {
	w := strings.Fields(os.Getenv(WrapperEnv))
	if len(w) == 0 || len(argv) == 0 {
		return argv
	}
	return append(w, argv...)
}

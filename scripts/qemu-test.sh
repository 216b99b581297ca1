#!/usr/bin/env bash
# qemu-test.sh — prove the linux/arm64 build works, on an x86-64 host, under
# qemu-aarch64 user-mode emulation:
#
#   1. make arm64: bin/linux_arm64/fplab{,-mimalloc2,-mimalloc3} (cgo, cross gcc)
#   2. cross-compile every package's tests (go test -c, GOARCH=arm64; alloc
#      also with -tags mimalloc2 and mimalloc3) and run them under qemu
#   3. run the smoke ladder (scripts/qemu-smoke.yaml) with the arm64 binaries
#      under qemu and write its report
#
# The emulated run is marked in its manifest (FPLAB_EMULATED=1); its
# timings are qemu's, never ARM performance. Children are started through
# FPLAB_CHILD_WRAPPER=qemu-aarch64-static because binfmt_misc is usually
# not registered in containers/CI.
#
# Needs: apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static
# Env:   QEMU_TEST_SKIP_LADDER=1 skips step 3; QEMU_TEST_ONLY_LADDER=1 skips step 2.
# Exit status: non-zero if a build, a test binary or the ladder failed.
set -euo pipefail
cd "$(dirname "$0")/.."

QEMU=${QEMU:-qemu-aarch64-static}
export QEMU_LD_PREFIX=${QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}
ARMENV=(CGO_ENABLED=1 GOOS=linux GOARCH=arm64 CC=aarch64-linux-gnu-gcc)

for tool in aarch64-linux-gnu-gcc "$QEMU"; do
	command -v "$tool" >/dev/null || {
		echo "qemu-test: $tool not found: apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static" >&2
		exit 1
	}
done

# Children started through the lab's wrapper hook (ladder cells, ladder
# brokers, checkpoint readers of a rung) run as "qemu -L <sysroot> child".
WRAP="$QEMU -L $QEMU_LD_PREFIX"

# Tests qemu user-mode cannot run here. Without binfmt_misc an emulated
# process can only exec host binaries; these tests re-exec their own arm64
# test binary (as an embedded broker via clusters.StartEmbedded, or as a
# checkpoint reader via checkpointcost.Supervise), which do not apply
# FPLAB_CHILD_WRAPPER. The smoke ladder below covers the same ground (broker,
# every path, verification, checkpoint readers) through the wrapper.
declare -A SKIP=(
	[github.com/fastpathlab/fplab/clusters]="every test starts an embedded broker by re-exec'ing the arm64 test binary (clusters.StartEmbedded, no wrapper)"
	[github.com/fastpathlab/fplab/source]="needs an embedded broker started by re-exec'ing the arm64 test binary"
	[github.com/fastpathlab/fplab/ladder/rung]="needs an embedded broker started by re-exec'ing the arm64 test binary"
	[github.com/fastpathlab/fplab/clusters/kafka]="starts real Apache Kafka (x86 JVM processes, minutes); no arm64 code beyond the client the smoke ladder runs"
)
# Single tests to skip (go test -skip regexp) for the same reason.
declare -A SKIP_TESTS=(
	[github.com/fastpathlab/fplab/checkpointcost]='^(TestSupervise|TestCrashBetweenCompleteAndCommit)'
	[github.com/fastpathlab/fplab/cmd/fplab]='^TestBadInputIsOneLine$'
	# These start host programs (/bin/sh) or re-exec the test binary as
	# children, which FPLAB_CHILD_WRAPPER would hand to qemu-aarch64.
	[github.com/fastpathlab/fplab/ladder]='^(TestChildTempDirRemoved|TestCrashedOwnerDoesNotBlock|TestRunChildPassesSecretsOnFD3)$'
	# Starts an embedded broker by re-exec'ing the arm64 test binary
	# (clusterstest.StartSelfT); its Flink job is x86 Java either way.
	[github.com/fastpathlab/fplab/ladder/rung/jvmref]='^TestFlinkStartOracle$'
	# make installs the arm64 test binary as a commit's fplab and runs it.
	[github.com/fastpathlab/fplab/ladder/bisect]='^TestSearchOverWorktrees$'
)

echo "== make arm64"
t0=$SECONDS
if grep -q '^include arm64.mk' Makefile; then
	make arm64
else
	make -f Makefile -f arm64.mk arm64
fi
echo "   $((SECONDS - t0))s"

failed=()
if [[ -z "${QEMU_TEST_ONLY_LADDER:-}" ]]; then
	echo "== arm64 tests under $QEMU"
	tdir=$(mktemp -d)
	trap 'rm -rf "$tdir"' EXIT
	# Children the tests start (ladder fakes, brokers, readers) go through qemu too.
	export FPLAB_CHILD_WRAPPER="$WRAP"
	run_pkg() { # tags pkg
		local tags=$1 pkg=$2 name bin dir
		name=$(echo "${pkg#github.com/fastpathlab/fplab}${tags:+-$tags}" | tr '/' '_')
		bin="$tdir/$name.test"
		if [[ -n "${SKIP[$pkg]:-}" ]]; then
			echo "   skip $pkg: ${SKIP[$pkg]}"
			return
		fi
		env "${ARMENV[@]}" go test -c ${tags:+-tags "$tags"} -o "$bin" "$pkg"
		[[ -f "$bin" ]] || return 0 # no test files
		dir=$(go list -f '{{.Dir}}' "$pkg")
		local s=$SECONDS
		local skip=()
		if [[ -n "${SKIP_TESTS[$pkg]:-}" ]]; then
			skip=(-test.skip "${SKIP_TESTS[$pkg]}")
			echo "   (skipping $pkg tests matching ${SKIP_TESTS[$pkg]}: they re-exec the arm64 test binary)"
		fi
		if (cd "$dir" && "$QEMU" "$bin" -test.count=1 -test.timeout=10m "${skip[@]}" >"$bin.log" 2>&1); then
			echo "   ok   $pkg ${tags:+[$tags] }($((SECONDS - s))s)"
		else
			echo "   FAIL $pkg ${tags:+[$tags] }($((SECONDS - s))s)"
			tail -n 30 "$bin.log" | sed 's/^/        /'
			failed+=("$pkg${tags:+ [$tags]}")
		fi
	}
	t0=$SECONDS
	for pkg in $(go list ./...); do
		run_pkg "" "$pkg"
	done
	for tags in mimalloc2 mimalloc3; do
		for pkg in $(go list ./alloc/...); do
			run_pkg "$tags" "$pkg"
		done
	done
	unset FPLAB_CHILD_WRAPPER
	echo "   tests: $((SECONDS - t0))s"
fi

if [[ -z "${QEMU_TEST_SKIP_LADDER:-}" ]]; then
	echo "== smoke ladder (arm64 under $QEMU, emulated)"
	t0=$SECONDS
	out=$(mktemp)
	if FPLAB_EMULATED=1 FPLAB_CHILD_WRAPPER="$WRAP" \
		"$QEMU" bin/linux_arm64/fplab ladder --spec scripts/qemu-smoke.yaml | tee "$out"; then
		:
	else
		failed+=("smoke ladder")
	fi
	run=$(tail -n 1 "$out")
	rm -f "$out"
	echo "   ladder: $((SECONDS - t0))s"
	if [[ -d "$run" ]]; then
		grep -q '"emulated": true' "$run/manifest.json" || { echo "qemu-test: $run/manifest.json is not marked emulated" >&2; failed+=("emulated flag"); }
		okrows=$(grep -c '"ok":true' "$run/journal.jsonl" || true)
		badrows=$(grep -c '"ok":false' "$run/journal.jsonl" || true)
		echo "   journal: $okrows ok, $badrows failed cell repetitions"
		if ((badrows > 0 || okrows == 0)); then
			grep '"ok":false' "$run/journal.jsonl" | sed -n 's/.*"cell":"\([^"]*\)".*"reason":"\([^"]*\)".*/        \1: \2/p' | head -n 20
			failed+=("smoke cells ($badrows failed)")
		fi
		"$QEMU" bin/linux_arm64/fplab report "$run" || failed+=("report")
		echo "$run"
	fi
fi

if ((${#failed[@]})); then
	echo "qemu-test: failed: ${failed[*]}" >&2
	exit 1
fi
echo "qemu-test: ok"

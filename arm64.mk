# arm64.mk — included by the top-level Makefile: the linux/arm64 cross build.
#
#   make arm64            bin/linux_arm64/fplab{,-mimalloc2,-mimalloc3}
#   make arm64-go         only bin/linux_arm64/fplab
#   make arm64-mimalloc-libs   the arm64 mimalloc archives (no cargo target needed)
#   make qemu-test        arm64 test binaries + smoke ladder under qemu-aarch64
#                         (scripts/qemu-test.sh; marked emulated, not ARM timings)
#
# Needs (Debian 12): apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross
# and, for qemu-test, qemu-user-static. cgo is on: librdkafka comes from
# confluent-kafka-go's bundled librdkafka_glibc_linux_arm64.a.
#
# mimalloc: alloc/Makefile.inc builds the archives with cargo, which would
# need the rustup target aarch64-unknown-linux-gnu (rustup's server is not
# reachable from the lab machine). Here the same provider's C sources — the
# mimalloc v2/v3 trees vendored in the libmimalloc-sys crate cargo already
# fetched — are compiled with aarch64-linux-gnu-gcc and the flags the crate's
# build script uses, plus scripts/arm64/fplab_mimalloc_version.c standing in
# for the Rust staticlib's one exported function. The archive lands at the
# path alloc/internal/cmalloc's cgo LDFLAGS reference for linux,arm64.

ARM64_GOENV   := CGO_ENABLED=1 GOOS=linux GOARCH=arm64 CC=aarch64-linux-gnu-gcc
# The default build mode, as on amd64. A non-PIE arm64 fplab gets a
# canonical PLT entry for malloc (the bundled librdkafka_glibc_linux_arm64.a
# takes malloc's address directly), so dladdr(&malloc) names the executable;
# alloc's go-variant proof then resolves the next definition (RTLD_NEXT) and
# still requires glibc's in-use accounting to rise. ARM64_BUILDMODE=pie also
# works.
ARM64_BUILDMODE ?= exe
ARM64_GOBUILD  = $(ARM64_GOENV) $(GO) build -buildmode=$(ARM64_BUILDMODE) -trimpath -ldflags '$(LDFLAGS)'
ARM64_CC      ?= aarch64-linux-gnu-gcc
ARM64_AR      ?= aarch64-linux-gnu-ar
ARM64_BIN     := bin/linux_arm64
ARM64_LIBDIR  := $(ALLOC_CRATE)/lib/linux_arm64
ARM64_OBJDIR  := $(ALLOC_CRATE)/target-arm64
ARM64_SHIM    := scripts/arm64/fplab_mimalloc_version.c
# The flags libmimalloc-sys's build.rs (with its `override` feature) and the
# cc crate pass in a release build.
ARM64_MI_CFLAGS := -O3 -ffunction-sections -fdata-sections -fPIC -Wno-error=date-time \
	-DMI_MALLOC_OVERRIDE -fno-builtin-malloc -ftls-model=initial-exec \
	-DMI_DEBUG=0 -DMI_BUILD_RELEASE -DNDEBUG

.PHONY: arm64 arm64-go arm64-mimalloc2 arm64-mimalloc3 arm64-mimalloc-libs arm64-require qemu-test

arm64: arm64-go arm64-mimalloc2 arm64-mimalloc3
	@echo "arm64: built $(ARM64_BIN)/fplab $(ARM64_BIN)/fplab-mimalloc2 $(ARM64_BIN)/fplab-mimalloc3 (every allocator variant)"

arm64-require:
	@command -v $(ARM64_CC) >/dev/null || { echo "arm64: $(ARM64_CC) not found: apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross" >&2; exit 1; }
	@test -f /usr/aarch64-linux-gnu/include/stdio.h || { echo "arm64: arm64 libc headers missing: apt-get install libc6-dev-arm64-cross" >&2; exit 1; }

arm64-go: arm64-require
	@mkdir -p $(ARM64_BIN)
	$(ARM64_GOBUILD) -o $(ARM64_BIN)/fplab ./cmd/fplab

arm64-mimalloc2 arm64-mimalloc3: arm64-mimalloc%: arm64-require $(ARM64_LIBDIR)/v%/libfplab_mimalloc.a $(ALLOC_CRATE)/lib/include-v%/mimalloc.h
	@mkdir -p $(ARM64_BIN)
	$(ARM64_GOBUILD) -tags '$(ALLOC_TAGS_mimalloc$*)' -o $(ARM64_BIN)/$(ALLOC_BIN_mimalloc$*) ./cmd/fplab

arm64-mimalloc-libs: $(ARM64_LIBDIR)/v2/libfplab_mimalloc.a $(ARM64_LIBDIR)/v3/libfplab_mimalloc.a

# When the whole build is for arm64 (make ... GOARCH=arm64), alloc/Makefile.inc
# owns these paths (its cargo rule); otherwise they are built here.
ifneq ($(ALLOC_GOARCH),arm64)
$(ARM64_LIBDIR)/v%/libfplab_mimalloc.a: $(ARM64_SHIM) $(ALLOC_CRATE)/Cargo.lock | alloc-fetch arm64-require
	@mkdir -p $(ARM64_OBJDIR)/v$* $(dir $@)
	src=$$($(ALLOC_CARGO) metadata --offline --locked --format-version 1 \
		--manifest-path $(ALLOC_CRATE)/Cargo.toml \
		| tr ',' '\n' | sed -n 's|.*"manifest_path":"\(.*/libmimalloc-sys-[^/]*\)/Cargo.toml".*|\1|p' | head -n1); \
	test -n "$$src" || { echo "arm64: libmimalloc-sys not found in cargo metadata" >&2; exit 1; }; \
	mi=$$src/c_src/mimalloc/v$*; \
	$(ARM64_CC) $(ARM64_MI_CFLAGS) -I$$mi/include -I$$mi/src -c $$mi/src/static.c -o $(ARM64_OBJDIR)/v$*/static.o && \
	$(ARM64_CC) -O2 -fPIC -I$$mi/include -c $(ARM64_SHIM) -o $(ARM64_OBJDIR)/v$*/version.o
	rm -f $@.tmp
	$(ARM64_AR) crs $@.tmp $(ARM64_OBJDIR)/v$*/static.o $(ARM64_OBJDIR)/v$*/version.o
	mv $@.tmp $@
endif

qemu-test: arm64
	scripts/qemu-test.sh

.PHONY: arm64-clean
arm64-clean:
	rm -rf $(ARM64_BIN) $(ARM64_LIBDIR) $(ARM64_OBJDIR)

# Fastpath Lab. `make build` puts every binary in bin/; `make test` runs the
# suite; `make bench-smoke` and `make bench-ladder` run ladders and print the
# run directory last.

GO      ?= go
SPEC    ?= ladder/specs/default.yaml
COMMIT  := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
DIRTY   := $(shell test -z "$$(git status --porcelain 2>/dev/null)" && echo false || echo true)
LDFLAGS := -X main.commit=$(COMMIT) -X main.dirty=$(DIRTY)
# Only optimised builds are measured: no -race, no -gcflags=-N -l.
GOBUILD := CGO_ENABLED=1 $(GO) build -trimpath -ldflags '$(LDFLAGS)'

include alloc/Makefile.inc
include clusters/kafka/Makefile.inc
include java/Makefile.inc
include arm64.mk
include results/changepoint/Makefile.inc

.PHONY: all build build-go build-mimalloc2 build-mimalloc3 test vet bench-smoke bench-ladder bench-paths bench-kafka-smoke bench-parity bench-references bench-references-quote bench-speed speed-baseline bench-client bench-live clean

all: build

# One fplab binary per allocator variant; the ladder runs each cell in the
# binary of its alloc value.
build: build-go build-mimalloc2 build-mimalloc3

build-go:
	@mkdir -p bin
	$(GOBUILD) -o bin/fplab ./cmd/fplab
	$(GOBUILD) -o bin/fplab-history ./cmd/fplab-history

build-mimalloc2: $(ALLOC_LIB_mimalloc2) $(ALLOC_INC_mimalloc2)
	@mkdir -p bin
	$(GOBUILD) -tags '$(ALLOC_TAGS_mimalloc2)' -o bin/$(ALLOC_BIN_mimalloc2) ./cmd/fplab

build-mimalloc3: $(ALLOC_LIB_mimalloc3) $(ALLOC_INC_mimalloc3)
	@mkdir -p bin
	$(GOBUILD) -tags '$(ALLOC_TAGS_mimalloc3)' -o bin/$(ALLOC_BIN_mimalloc3) ./cmd/fplab

# The harness side links no C: the ladder, the checkpoint supervisor and
# the analysis build and vet with cgo off (docs/architecture.md).
NOCGO_PKGS = ./ladder ./ladder/rungargs ./checkpointcost ./source/consume ./results/... ./plots ./report ./workloads

vet:
	$(GO) vet ./...
	CGO_ENABLED=0 $(GO) vet $(NOCGO_PKGS)
	$(GO) vet -tags mimalloc2 ./alloc/... ./cmd/...
	$(GO) vet -tags mimalloc3 ./alloc/... ./cmd/...

# The history site's browser test opens its pages in Debian's Chromium
# (report/site); .ci/run installs the package where it is missing.
CHROMIUM ?= /usr/bin/chromium

# The real-Kafka tests need the Kafka distribution and the Java references
# (Maven Central, cached once); with FPLAB_KAFKA_DIST and FPLAB_JAVA_REFS
# set they fail rather than skip without them.
test: build vet kafka-dist java-refs otava
	FPLAB_KAFKA_DIST=$(KAFKA_DIST) FPLAB_JAVA_REFS=$(JAVA_REFS_JAR) FPLAB_OTAVA=$(OTAVA_PYTHON) FPLAB_CHROMIUM=$(CHROMIUM) $(GO) test -count=1 -timeout 30m ./...
	# The packages with goroutines, child processes and brokers, again
	# under the race detector (test builds only; nothing measured; the
	# buffer pool, which batches are released into from any goroutine;
	# of ladder/rung only the checksum-behind-the-reader tests: a rung
	# refuses to run in a -race build).
	$(GO) test -count=1 -race -timeout 30m ./checkpointcost ./clusters ./ladder ./source ./workloads/recycle
	$(GO) test -count=1 -race -timeout 10m -run 'Checker|Behind' ./ladder/rung
	CGO_ENABLED=0 $(GO) test -count=1 -timeout 30m ./ladder ./checkpointcost
	$(GO) test -count=1 -tags mimalloc2 ./alloc/...
	$(GO) test -count=1 -tags mimalloc3 ./alloc/...
	$(GO) test -count=1 -tags mimalloc2 -run ThreadChurn ./source
	$(GO) test -count=1 -tags mimalloc3 -run ThreadChurn ./source

# Differential fuzzing of the lab's decoders against the stock Go
# libraries (workloads/stock), each target for FUZZTIME in turn; `make
# test` runs their seeds. A crasher is written under
# workloads/stock/testdata/fuzz/<target>/ and stays there as a seed.
FUZZTIME ?= 30s
FUZZ_TARGETS = FuzzJSON FuzzAvro FuzzProtobuf FuzzCSV

# The history site of this checkout's runs: every finished run in
# results/runs into the store (results/history.sqlite; a run already there
# changes nothing), then the site in results/site (open
# results/site/index.html; docs/history.md).
.PHONY: history-site
history-site: build-go
	@runs=$$(ls -d results/runs/*/ 2>/dev/null); \
	if [ -n "$$runs" ]; then bin/fplab history add --skip-incomplete $$runs; fi
	bin/fplab history site results/site

# The site of this repository's own history: the store kept with it
# (results/baselines/history.sqlite: the last commits' smoke runs, made
# with fplab history backfill; docs/history.md), in results/lab-site.
LAB_HISTORY := results/baselines/history.sqlite
.PHONY: lab-history-site
lab-history-site: build-go
	bin/fplab history --store $(LAB_HISTORY) site results/lab-site

.PHONY: fuzz
fuzz:
	@for t in $(FUZZ_TARGETS); do \
		echo "$(GO) test -run=^\$$ -fuzz=^$$t\$$ -fuzztime=$(FUZZTIME) ./workloads/stock"; \
		$(GO) test -run='^$$' -fuzz="^$$t\$$" -fuzztime=$(FUZZTIME) ./workloads/stock || exit 1; \
	done

bench-smoke: build
	bin/fplab ladder --spec ladder/specs/smoke.yaml

bench-ladder: build
	bin/fplab ladder --spec $(SPEC)

bench-paths: build
	bin/fplab ladder --spec ladder/specs/paths.yaml

bench-kafka-smoke: build kafka-dist java-refs
	FPLAB_KAFKA_DIST=$(KAFKA_DIST) FPLAB_JAVA_REFS=$(JAVA_REFS_JAR) bin/fplab ladder --spec ladder/specs/kafka-smoke.yaml

# The reference rungs (docs/references.md): flink, java, java-perf, the
# consume-only twins and the serving ceiling beside the Go paths.
bench-references: build kafka-dist java-refs
	FPLAB_KAFKA_DIST=$(KAFKA_DIST) FPLAB_JAVA_REFS=$(JAVA_REFS_JAR) bin/fplab ladder --spec ladder/specs/references.yaml

# The speed guard (docs/optimizations.md, "The speed guard"): speed.yaml,
# then fplab compare against the saved baseline. Non-zero on a failed cell
# or a speed unit (SPEED_UNITS) that regressed past compare's threshold
# and, for the cells, past the runs' A/A floor; memory and the cells'
# cpu-ns/rec are shown, not judged (the host moved both between two runs
# of one binary: docs/optimizations.md, "The speed guard"). A baseline from another
# host is refused (save this host's with speed-baseline).
SPEED_BASELINE ?= results/baselines/speed
SPEED_UNITS    ?= rec/s,dec-ns/rec,dec-cpu-ns/rec,dec-allocs/rec
bench-speed: build
	run=$$(bin/fplab ladder --spec ladder/specs/speed.yaml) && bin/fplab compare --units $(SPEED_UNITS) $(SPEED_BASELINE) $$run

# Save a speed.yaml run as the baseline (commit it with what it measures).
speed-baseline: build
	run=$$(bin/fplab ladder --spec ladder/specs/speed.yaml) && rm -rf $(SPEED_BASELINE) && mkdir -p $(SPEED_BASELINE) && \
	cp $$run/manifest.json $$run/journal.jsonl $$run/raw.txt $$run/report.md $(SPEED_BASELINE)/

# The comparisons to quote (docs/references.md, "What to quote"): fast
# against warm and cold Flink and the steady Java consumer on real Kafka.
bench-references-quote: build kafka-dist java-refs
	FPLAB_KAFKA_DIST=$(KAFKA_DIST) FPLAB_JAVA_REFS=$(JAVA_REFS_JAR) bin/fplab ladder --spec ladder/specs/references-quote.yaml

# What the librdkafka client costs the fast path (docs/results-log.md,
# "What the librdkafka client costs"): the twin over the prefetch bounds and
# the crossing, with librdkafka's statistics, beside franz and java.
bench-client: build-go kafka-dist java-refs
	FPLAB_KAFKA_DIST=$(KAFKA_DIST) FPLAB_JAVA_REFS=$(JAVA_REFS_JAR) bin/fplab ladder --spec ladder/specs/client.yaml

# The parity matrix (docs/parity.md): every path on every case, on kfake,
# then on real Kafka (transactions, DeleteRecords, ACLs).
bench-parity: build kafka-dist
	bin/fplab ladder --spec ladder/specs/parity.yaml
	FPLAB_KAFKA_DIST=$(KAFKA_DIST) bin/fplab ladder --spec ladder/specs/parity-kafka.yaml

# The live cells (docs/metrics.md "Live cells"): latency per path at three
# rates on both clusters, the fast path beside the JVM references live,
# the batch x linger sweep, and the highest rate each path sustains; each
# spec's run directory is printed last.
bench-live: build kafka-dist java-refs
	FPLAB_KAFKA_DIST=$(KAFKA_DIST) FPLAB_JAVA_REFS=$(JAVA_REFS_JAR) bin/fplab ladder --spec ladder/specs/live-rates.yaml
	FPLAB_KAFKA_DIST=$(KAFKA_DIST) FPLAB_JAVA_REFS=$(JAVA_REFS_JAR) bin/fplab ladder --spec ladder/specs/live-refs.yaml
	bin/fplab ladder --spec ladder/specs/live.yaml
	bin/fplab ladder --spec ladder/specs/maxrate.yaml

clean:
	rm -rf bin
	$(MAKE) alloc-clean

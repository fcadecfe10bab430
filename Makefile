# layout-worker: every install step lives here (idempotent, cached in gitignored folders).
SHELL := /bin/bash
.DEFAULT_GOAL := help

ROOT := $(abspath .)
DEPS := $(ROOT)/.deps
RUN_DIR := $(ROOT)/.run
# The server property test's random change sets, written by `swift test` for the Android kit's tests.
RANDOM_CHANGE_SETS := $(RUN_DIR)/random-change-sets.ndjson
# librdkafka >= 2.1 (system, or Debian's newer source package built into .deps/librdkafka), asked by the shell when
# the command runs (a make function would run when the recipe is expanded, before the recipe's first line).
SWIFT_ENV = PKG_CONFIG_PATH="$$($(ROOT)/scripts/ensure-librdkafka.sh 2>/dev/null | tail -n1)$${PKG_CONFIG_PATH:+:$$PKG_CONFIG_PATH}"
SWIFT_FLAGS ?=
# Every executable that links librdkafka (the binary, the test binary) finds a private build through an rpath (a
# command-line flag rather than an unsafeFlags setting in Package.swift, which a versioned dependency may not have).
LINK_FLAGS := -Xlinker -rpath -Xlinker $(DEPS)/librdkafka/lib
# Release builds leave out Swift's run-time exclusivity checks, as Swift's standard library is built: NIO's channel
# and HTTP/1 paths make about 58 checked accesses per request, 17% of a 304's instructions (callgrind). Debug builds,
# which `make test` runs, keep them; the compiler's static checks apply to both.
RELEASE_FLAGS := -Xswiftc -enforce-exclusivity=unchecked
# The last line of a stage of `make test`: when it ended (the stages of the parallel step print as they end).
PASSED = @echo "== $@ passed at $$(date +%T)"
BIN := $(ROOT)/.build/debug/layout-worker
RELEASE_BIN := $(ROOT)/.build/release/layout-worker

.PHONY: help tag deps test-deps test-packages build swift-packages swift-build release test test-quick test-service test-service-1 test-service-2 test-service-3 client-fixtures test-clients test-android test-web test-swift-kit test-browser run bench bench-compare bench-e2e bench-state bench-transactions kill-storm fuzz fuzz-build fuzz-seeds broker broker-stop format clean

# What `swift format` formats and `make test` lints (the configuration is .swift-format).
FORMAT_PATHS := Package.swift Sources Tests Plugins Benchmarks/Package.swift Benchmarks/Benchmarks Fuzz/Package.swift Fuzz/Sources clients/swift/Package.swift clients/swift/Sources clients/swift/Tests
FUZZ_SECONDS ?= 60
# How long one input may take before libFuzzer calls it a hang.
FUZZ_TIMEOUT ?= 10
FUZZERS := JSONReader ContentTree Compile Condition ChangeSet

help:
	@echo "make run    - install what is missing, start a test broker, run the worker on samples/, show the records, stop"
	@echo "make test   - lint, check imports, build and run every test (unit, CLI, schema cross-check, broker integration, deploy,"
	@echo "              kits, browser, a fuzz smoke): make test-quick first, then the rest at once"
	@echo "make test-quick / test-service / test-clients / test-browser - one stage of make test"
	@echo "make bench  - compile-throughput benchmarks (ordo-one/benchmark), then compile's NDJSON stdin path against files"
	@echo "make bench-compare BASE=REV - compile (the command, and make bench's in-process benchmark) against revision REV's"
	@echo "make bench-e2e - records/s through the broker, serve vs pass-through; peak RSS with backlogs; the gateway with 1,000 streams, then 10,000 and 18,000 on one page (RSS per stream, fan-out, freshness per hop); navigation states from an origin; then make bench-state"
	@echo "make tag - tag HEAD with layout-worker --version (the version an app's Package.swift resolves the Swift kit at)"
	@echo "make bench-state - the page store with 100,000 and 1,000,000 pages: restarts warm vs rebuilt, GETs from disk, RSS, disk per page; a rolling restart of 3 workers beside a bare consumer"
	@echo "make bench-transactions - what exactly-once would cost: the worker's Kafka path in KIP-447 transactions vs at-least-once, on the test broker"
	@echo "make kill-storm - 3 workers in one group, one SIGKILLed every 6 s for 70 s under load: lost inputs, duplicates, missing change-set steps"
	@echo "make fuzz FUZZ_SECONDS=N - every libFuzzer target for N seconds (default 60)"
	@echo "make broker / make broker-stop - a local Tansu test broker on loopback"
	@echo "make format - format the Swift sources (.swift-format); make test lints them"

# What building and `make run` need (librdkafka, RocksDB, the test broker's venv) and only that. The tests also need
# TEST_PACKAGES (test-deps): nginx and Varnish (the gateway runs behind both), Chromium (the preview in a browser),
# the JDK and JUnit 4 (the Android kit), and the venv's test tools. `make test` installs them beside the build, so
# no test installs anything.
TEST_PACKAGES := nginx varnish chromium openjdk-17-jdk-headless junit4
deps: $(DEPS)/.librdkafka $(DEPS)/.rocksdb $(DEPS)/venv/.layout-worker-2

test-deps: deps test-packages

# The Debian packages, and the venv's test tools (the schema, deploy and metrics checks' Python libraries, openssl).
test-packages: $(DEPS)/venv/.layout-worker-2
	@$(ROOT)/scripts/ensure-debian-packages.sh $(TEST_PACKAGES)
	@$(ROOT)/scripts/ensure-python.sh --test-tools

$(DEPS)/.rocksdb: scripts/ensure-debian-packages.sh
	@$(ROOT)/scripts/ensure-debian-packages.sh librocksdb-dev pkg-config
	@mkdir -p $(DEPS) && touch $@

$(DEPS)/.librdkafka: scripts/ensure-librdkafka.sh
	@$(ROOT)/scripts/ensure-librdkafka.sh >/dev/null
	@mkdir -p $(DEPS) && touch $@

$(DEPS)/venv/.layout-worker-2: scripts/ensure-python.sh
	@$(ROOT)/scripts/ensure-python.sh

# deps and the Swift packages that need neither librdkafka nor RocksDB (SwiftNIO, ServiceLifecycle, Yams, ...) at once:
# librdkafka's configure and each build's planning and linking leave a core idle, which the other takes. Then the
# package's own build, with BESIDE_BUILD (targets that need no CPU to speak of: `make test`'s installs) beside it.
BESIDE_BUILD ?=
build:
ifndef BUILT
	@echo "== deps and the Swift packages from $$(date +%T)"
	@$(MAKE) --no-print-directory -j3 deps swift-packages
	@echo "== the package's build $(if $(BESIDE_BUILD),and $(BESIDE_BUILD) )from $$(date +%T)"
	@$(MAKE) --no-print-directory -j2 swift-build $(BESIDE_BUILD)
	@echo "== built at $$(date +%T)"
endif

# The package's own build (`make build` makes deps and the Swift packages first): the binary, or with BUILD_TESTS
# every target and test (a plain `swift build` would also build the test-support targets, which the binary does
# not need).
swift-build: deps
	$(SWIFT_ENV) swift build $(or $(BUILD_TESTS),--product layout-worker) $(LINK_FLAGS) $(SWIFT_FLAGS)

# Not through SWIFT_ENV, which asks ensure-librdkafka.sh for its path: that script may be building it meanwhile.
# What it prints is what the build after it prints again (without the warnings about the C libraries not there yet).
# Only while librdkafka is still to be built: later, the package's own build has both cores for the same work (and
# each `swift build` that finds nothing to do still plans for seconds).
swift-packages:
	@[ -f $(DEPS)/.librdkafka ] || { echo "swift build --target Ops; swift build --target MappingFiles (while deps build)"; \
	  set -o pipefail; for t in Ops MappingFiles; do swift build --target $$t $(LINK_FLAGS) $(SWIFT_FLAGS) 2>&1 \
	  | { grep -v -E "^\[|you may be able to install|^warning: .*unhandled" || true; }; done; }

release: deps
	$(SWIFT_ENV) swift build -c release --static-swift-stdlib --product layout-worker $(LINK_FLAGS) $(RELEASE_FLAGS) $(SWIFT_FLAGS)

# `make test` on one build (tests built with the binary; a `swift build` without them after a test build plans and
# embeds again: 15-30 s each), the test packages installed during the package's own build (apt mostly waits on the
# network and the disk; installed earlier, Chromium's would hold apt's lock while librdkafka waits for its build
# packages), then three steps. The quick stage stops at its first failure. Then the rest runs at
# once (make -j, each target's output printed when it ends): the process tests in three processes, the renderer
# kits, the preview in Chromium, and the fuzz targets' build (debug: 70 s instead of 260 s for release) then a 10 s
# smoke of every target, niced, in the time the others wait on processes (a fuzz run starved of CPU takes longer
# over one input: FUZZ_TIMEOUT 120 s instead of 10 keeps that from reading as a hang).
test:
	@$(MAKE) --no-print-directory BUILD_TESTS=--build-tests BESIDE_BUILD=test-packages build
	@$(MAKE) --no-print-directory BUILT=1 test-quick
	@echo "== quick stage passed at $$(date +%T); the rest runs at once, each part's output printed as it ends"
	@$(MAKE) --no-print-directory -j7 -O BUILT=1 BUILD_TESTS=--build-tests FUZZ_CONFIG=debug FUZZ_SECONDS=10 \
	  FUZZ_TIMEOUT=120 NICE="nice -n 19" test-service test-clients test-browser fuzz
	@echo "== every test passed at $$(date +%T)"

# The test binary run directly: `swift test --skip-build` plans the package first (about 20 s) and holds .build's
# lock, so two could not run at once. A filter that matches no test fails.
TEST_BIN := $(ROOT)/.build/debug/LayoutWorkerPackageTests.xctest
SWIFT_TESTS = LW_RANDOM_CHANGE_SETS=$(RANDOM_CHANGE_SETS) $(TEST_BIN) --testing-library swift-testing
# The process tests (the targets named *ProcessTests: test brokers, the binary, nginx) spend most of their time
# waiting on processes; each runs off the cooperative pool, at most LW_PROCESS_TESTS_AT_ONCE (4) at once per process,
# in three processes. The first two take these suites, the third every other: each holds one of the three
# serialized fault suites (CommitTests, PartitionNeverStopsTests, KillLoopTests) and one of the longest tests
# (GatewayEdgeTests' failover trials, PartitionNeverStopsTests' broker restarts, KillLoopTests) beside the rest.
PROCESS_TESTS := ^[A-Za-z]+ProcessTests\.
SERVICE_SHARD_1 := CommitTests|GatewayPageStoreTests|PageStoreIntegrationTests|FaultTests|GatewayEdgeTests
SERVICE_SHARD_2 := PartitionNeverStopsTests|ChangeSetIntegrationTests|GatewayProxyTests

# Lint, design checks, every test but the process tests, then the samples and change sets against the schemas and
# the deploy files: what needs no test broker, in about 90 s on a built tree.
test-quick: build test-deps
	swift format lint --strict --recursive --parallel $(FORMAT_PATHS)
	@mkdir -p $(RUN_DIR)
	$(SWIFT_ENV) swift package describe --type json > $(RUN_DIR)/package.json
	python3 scripts/check-imports.py < $(RUN_DIR)/package.json
	python3 scripts/check-design.py < $(RUN_DIR)/package.json
	python3 scripts/check-function-length.py
	python3 scripts/check-tracked.py
	python3 scripts/check-doc-names.py
	$(SWIFT_TESTS) --skip '$(PROCESS_TESTS)|^($(KIT_TESTS))\.'
	$(BIN) compile samples/*.json > $(RUN_DIR)/samples.ndjson
	@if [ -f ../shared/corpus/assembler/supermami-1.json ]; then \
	  $(BIN) compile --config config/examples/supermami.yaml ../shared/corpus/assembler/*.json >> $(RUN_DIR)/samples.ndjson; fi
	@rm -f $(RUN_DIR)/changes.ndjson; for a in - samples/*.json; do for b in samples/*.json; do \
	  $(BIN) diff --responses $$a $$b >> $(RUN_DIR)/changes.ndjson || exit 1; done; done
	$(DEPS)/venv/bin/python scripts/check-schemas.py $(RUN_DIR)/samples.ndjson $(RUN_DIR)/changes.ndjson
	PROMTOOL="$$($(ROOT)/scripts/ensure-promtool.sh)" $(DEPS)/venv/bin/python scripts/check-deploy.py

# The process tests: worker, gateway, replay and the commands against test brokers, nginx and Varnish.
test-service: test-service-1 test-service-2 test-service-3

test-service-1: build test-deps
	$(SWIFT_TESTS) --filter '$(PROCESS_TESTS)($(SERVICE_SHARD_1))/'
	$(PASSED)

test-service-2: build test-deps
	$(SWIFT_TESTS) --filter '$(PROCESS_TESTS)($(SERVICE_SHARD_2))/'
	$(PASSED)

test-service-3: build test-deps
	$(SWIFT_TESTS) --filter '$(PROCESS_TESTS)' --skip '$(PROCESS_TESTS)($(SERVICE_SHARD_1)|$(SERVICE_SHARD_2))/'
	$(PASSED)

# The change sets this build makes, for the renderer kits' tests (clients/fixtures/generate.py).
client-fixtures: build
	python3 clients/fixtures/generate.py $(BIN) $(RUN_DIR)/client-fixtures

# The renderer kits against those fixtures: Android, web, Swift (three targets: make -j runs them at once).
test-clients: test-android test-web test-swift-kit

test-web: build client-fixtures
	@TSC="$$($(ROOT)/scripts/ensure-typescript.sh)" && $$TSC -p clients/web/tsconfig.json
	LW_FIXTURES=$(RUN_DIR)/client-fixtures node --test clients/web/test/*.test.js
	LW_BIN=$(BIN) clients/web/install-test.sh
	$(PASSED)

# The Swift kit's tests are built with the package's (one build of LayoutKit for both); `swift test` in clients/swift
# runs the same tests against the kit alone.
KIT_TESTS := LayoutKitTests|LayoutFeedTests
test-swift-kit: build client-fixtures
	LW_FIXTURES=$(RUN_DIR)/client-fixtures $(SWIFT_TESTS) --filter '^($(KIT_TESTS))\.'
	LW_BIN=$(BIN) clients/swift/install-test.sh
	$(PASSED)

# Tags HEAD with the version `layout-worker --version` prints: the tag an app's Package.swift resolves (`from:`).
tag: build
	@v="$$($(BIN) --version)"; if git rev-parse -q --verify "refs/tags/$$v" >/dev/null; then \
	  echo "tag $$v exists (at $$(git rev-parse --short "$$v^{commit}"))"; else git tag -a "$$v" -m "layout-worker $$v" && echo "tagged $$v"; fi

# The Android kit (clients/android: javac and JUnit 4 from Debian) against the fixtures, the server property test's
# 10,000 random change sets (written by `swift test`; made here when missing) and a real gateway on a test broker.
test-android: build client-fixtures
	@test -s $(RANDOM_CHANGE_SETS) || $(SWIFT_TESTS) --filter BatchUpdatePropertyTests
	LW_FIXTURES=$(RUN_DIR)/client-fixtures LW_RANDOM_CHANGE_SETS=$(RANDOM_CHANGE_SETS) LW_BIN=$(BIN) \
	  LW_TANSU="$$($(ROOT)/scripts/tansu-path.sh)" LW_ROOT=$(ROOT) clients/android/build.sh test
	$(PASSED)

# `layout-worker preview` in headless Chromium (installed when missing); keeps the screenshot in .run/preview.png.
test-browser: build
	CHROMIUM="$$($(ROOT)/scripts/ensure-chromium.sh)" LW_BIN=$(BIN) LW_SCREENSHOT=$(RUN_DIR)/preview.png \
	  node --test Tests/Browser/
	$(PASSED)

bench: deps release
	@mkdir -p $(RUN_DIR)
	cd Benchmarks && $(SWIFT_ENV) swift package --allow-writing-to-package-directory benchmark --format markdown --no-progress | tee $(RUN_DIR)/bench.md
	@$(DEPS)/venv/bin/python scripts/bench-summary.py $(RUN_DIR)/bench.md
	@$(ROOT)/scripts/bench-stdin.sh | tee -a $(RUN_DIR)/bench.md
	@SIMDJSON_PROBE="$$($(ROOT)/scripts/ensure-simdjson-probe.sh)" $(ROOT)/scripts/bench-process.sh $(RELEASE_BIN) \
	  | tee -a $(RUN_DIR)/bench.md

run: build
	@$(ROOT)/scripts/run-demo.sh

broker: deps
	@$(ROOT)/scripts/broker.sh start

broker-stop:
	@$(ROOT)/scripts/broker.sh stop

# `make bench-compare BASE=REV`: this tree's `compile` against revision REV's, alternating rounds in one run: the
# command as a process (scripts/bench-process.sh: 45 KB, 600 KB and corpus pages, files and stdin; MB/s, page
# faults, wall and CPU time) and `make bench`'s in-process compile benchmarks (p50). REV is built in
# .run/bench-base, a git worktree removed afterwards.
bench-compare: deps
	@test -n "$(BASE)" || { echo "usage: make bench-compare BASE=<git revision>"; exit 2; }
	$(SWIFT_ENV) swift build -c release --product layout-worker $(LINK_FLAGS) $(RELEASE_FLAGS) $(SWIFT_FLAGS)
	@rm -rf $(RUN_DIR)/bench-base; git worktree prune; git worktree add --detach $(RUN_DIR)/bench-base $(BASE) >/dev/null
	@cp -n Package.resolved $(RUN_DIR)/bench-base/ 2>/dev/null || true
	cd $(RUN_DIR)/bench-base && $(SWIFT_ENV) swift build -c release --product layout-worker $(LINK_FLAGS) $(RELEASE_FLAGS) $(SWIFT_FLAGS)
	@SIMDJSON_PROBE="$$($(ROOT)/scripts/ensure-simdjson-probe.sh)" \
	  $(ROOT)/scripts/bench-process.sh $(RUN_DIR)/bench-base/.build/release/layout-worker \
	  $(ROOT)/.build/release/layout-worker > $(RUN_DIR)/bench-compare.md \
	  && $(SWIFT_ENV) $(ROOT)/scripts/bench-compare-inprocess.sh $(RUN_DIR)/bench-base $(ROOT) >> $(RUN_DIR)/bench-compare.md; \
	  status=$$?; cat $(RUN_DIR)/bench-compare.md; git worktree remove --force $(RUN_DIR)/bench-base; exit $$status

bench-e2e: release
	@mkdir -p $(RUN_DIR) && $(ROOT)/scripts/bench-e2e.sh | tee $(RUN_DIR)/bench-e2e.md
	@$(MAKE) --no-print-directory bench-state

bench-state: release
	@mkdir -p $(RUN_DIR) && $(ROOT)/scripts/bench-state.sh | tee $(RUN_DIR)/bench-state.md

bench-transactions: release
	@mkdir -p $(RUN_DIR) && $(ROOT)/scripts/bench-transactions.sh | tee $(RUN_DIR)/bench-transactions.md

kill-storm: release
	@mkdir -p $(RUN_DIR) && HEADER=1 $(ROOT)/scripts/kill-storm.sh | tee $(RUN_DIR)/kill-storm.md

# `make fuzz`: every target for FUZZ_SECONDS each, one after another (make -j2 fuzz: two at once), built with
# FUZZ_CONFIG (release: four times the runs per second of debug). The build and the runs take NICE as a prefix
# (`make test` runs its smoke with `nice -n 19` beside the other tests).
# -detect_leaks=0: Swift keeps enum case tags in pointer spare bits, so LeakSanitizer reports reachable
# indirect-enum boxes (e.g. the loaded config's conditions) as leaks; ASan's memory-error checks stay on.
NICE ?=
FUZZ_CONFIG ?= release
fuzz: $(addprefix fuzz-run-,$(FUZZERS))

fuzz-build: build
	cd Fuzz && $(SWIFT_ENV) $(NICE) swift build -c $(FUZZ_CONFIG) -Xswiftc -sanitize=fuzzer,address
	$(PASSED)

# Change-set seeds: the sample page against every sample, and every sample from empty.
fuzz-seeds: build
	@mkdir -p $(RUN_DIR)/fuzz-seeds/changes
	@for s in samples/*.json; do n=$$(basename $$s .json); \
	  $(BIN) diff --responses samples/search-page.json $$s > $(RUN_DIR)/fuzz-seeds/changes/$$n.json; \
	  $(BIN) diff --responses - $$s > $(RUN_DIR)/fuzz-seeds/changes/empty-$$n.json; done

fuzz-run-%: fuzz-build fuzz-seeds
	@seeds="Fuzz/seeds/json samples"; dict="-dict=Fuzz/numbers.dict"; \
	  [ $* = Condition ] && dict="" && seeds="Fuzz/seeds/conditions"; \
	  [ $* = ChangeSet ] && dict="" && seeds="$(RUN_DIR)/fuzz-seeds/changes"; \
	  [ $* != Condition ] && [ $* != ChangeSet ] && [ -d ../shared/corpus/assembler ] && seeds="$$seeds ../shared/corpus/assembler"; \
	  mkdir -p $(RUN_DIR)/fuzz/$* fuzz-artifacts; echo "== fuzz $* for $(FUZZ_SECONDS) s"; \
	  ASAN_OPTIONS=detect_leaks=0 $(NICE) Fuzz/.build/$(FUZZ_CONFIG)/Fuzz$* -max_total_time=$(FUZZ_SECONDS) -timeout=$(FUZZ_TIMEOUT) \
	    -report_slow_units=$(FUZZ_TIMEOUT) \
	    -rss_limit_mb=2048 -max_len=1048576 -detect_leaks=0 -artifact_prefix=fuzz-artifacts/$*- -print_final_stats=1 \
	    $$dict $(RUN_DIR)/fuzz/$* $$seeds 2>&1 \
	    | grep -E "^(Done|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY|artifact_prefix)"; \
	  test $${PIPESTATUS[0]} -eq 0

format:
	swift format format --in-place --recursive --parallel $(FORMAT_PATHS)

clean:
	rm -rf .build .build-* Benchmarks/.build Fuzz/.build $(RUN_DIR)

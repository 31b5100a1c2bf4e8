# Thin wrapper over CMake/CTest. `make run` installs what the command and its demos need
# (scripts/deps.sh run), builds and runs the demos; `make install PREFIX=...` installs the command,
# the libraries, headers, CMake package and pkg-config files; `make check` installs the test
# dependencies (scripts/deps.sh check), then builds and runs every test (normal, ASan+UBSan, TSan for
# concurrency tests), the Cortex-M freestanding build and a fuzz smoke run; `make clone-test` runs
# the normal test suite in a fresh clone with nothing beside it (what a user has).
BUILD    ?= build
GEN      := -G Ninja
JOBS     ?= $(shell nproc)
# Seconds per fuzz target in fuzz-smoke (18 targets, JOBS at a time: under 2 minutes on 2 cores).
FUZZ_SECONDS ?= 8
PREFIX   ?= /usr/local
CMAKE_COMMON := -DEVT_SHARED_DIR=$(abspath ../shared)

.PHONY: all deps deps-run build build-tests run install test clone-test clone-check test-asan test-tsan cortex-m \
        firmware-kit fuzz fuzz-smoke bench clean

all: build

deps-run:
	@bash scripts/deps.sh run

deps:
	@bash scripts/deps.sh check

# The command, the libraries and the demos (no tests: cmocka is a `check` dependency).
build: deps-run
	cmake -S . -B $(BUILD)/normal $(GEN) $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEVT_TESTS=OFF >/dev/null
	cmake --build $(BUILD)/normal -j $(JOBS)

build-tests: deps
	cmake -S . -B $(BUILD)/normal $(GEN) $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEVT_TESTS=ON >/dev/null
	cmake --build $(BUILD)/normal -j $(JOBS)

# Ends with the HTML report of the ThreadX demo (its trace carries its microsecond clock rate).
run: build
	bash examples/run-demo.sh $(BUILD)/normal
	@out="$${EVT_DEMO_OUT:-out}"; $(BUILD)/normal/evtrace report -q --force "$$out/demo.trx" \
	  -o "$$out/demo-report.html" && \
	  echo "Open file://$$(cd "$$out" && pwd)/demo-report.html in a web browser: the interactive report of the ThreadX demo (no network needed)."

install: build
	cmake --install $(BUILD)/normal --prefix "$(PREFIX)"

test: build-tests
	cd $(BUILD)/normal && ctest --output-on-failure -j $(JOBS)

# A fresh clone of the committed tree in a temporary folder with no shared/ beside it, CI unset
# (a user's machine): `make test` there must pass. Uncommitted changes are not in the clone.
clone-test:
	@t="$$(mktemp -d)" && trap 'rm -rf "$$t"' EXIT && \
	  git clone -q "$(CURDIR)" "$$t/evtrace" && \
	  if [ -e "$$t/shared" ]; then echo "clone-test: $$t/shared exists" >&2; exit 1; fi && \
	  echo "clone-test: make test in $$t/evtrace (nothing beside it)" && \
	  env -u CI $(MAKE) -C "$$t/evtrace" test BUILD=build JOBS=$(JOBS)

# CI: the full check (normal, ASan+UBSan, TSan, Cortex-M, fuzz replay) in a fresh clone of the
# committed tree with nothing beside it. Only the CI-only oracle test (tests/data equals its origin)
# is told where the development-only shared/ folder is (EVT_SHARED_DIR); every other test reads
# tests/data, and repo/no_shared_refs fails if one names shared/.
clone-check:
	@t="$$(mktemp -d)" && trap 'rm -rf "$$t"' EXIT && \
	  git clone -q "$(CURDIR)" "$$t/evtrace" && \
	  if [ -e "$$t/shared" ]; then echo "clone-check: $$t/shared exists" >&2; exit 1; fi && \
	  echo "clone-check: make check in $$t/evtrace (nothing beside it)" && \
	  $(MAKE) -C "$$t/evtrace" check BUILD=build JOBS=$(JOBS) \
	    CMAKE_COMMON="-DEVT_SHARED_DIR=$(abspath ../shared)"

test-asan: deps
	cmake -S . -B $(BUILD)/asan $(GEN) $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=Debug -DEVT_SANITIZE=asan >/dev/null
	cmake --build $(BUILD)/asan -j $(JOBS)
	cd $(BUILD)/asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS) -L unit

test-tsan: deps
	cmake -S . -B $(BUILD)/tsan $(GEN) $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEVT_SANITIZE=tsan >/dev/null
	cmake --build $(BUILD)/tsan -j $(JOBS)
	cd $(BUILD)/tsan && TSAN_OPTIONS=halt_on_error=1 ctest --output-on-failure -j $(JOBS) -L concurrency

cortex-m: deps
	bash scripts/build-cortex-m.sh $(BUILD)/cortex-m

# The recorder as a source drop for firmware projects (docs/firmware.md): $(BUILD)/firmware-kit/evtrace
firmware-kit:
	bash scripts/firmware-kit.sh $(BUILD)/firmware-kit

fuzz-build: deps
	CC=clang cmake -S . -B $(BUILD)/fuzz $(GEN) $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEVT_FUZZ=ON -DEVT_TESTS=OFF >/dev/null
	cmake --build $(BUILD)/fuzz -j $(JOBS)

fuzz-smoke: fuzz-build
	bash scripts/fuzz.sh $(BUILD)/fuzz $(FUZZ_SECONDS) $(JOBS)

fuzz: fuzz-build
	bash scripts/fuzz.sh $(BUILD)/fuzz $${FUZZ_SECONDS:-300}

check: deps test test-asan test-tsan cortex-m fuzz-smoke
	@echo "make check: all stages passed"

bench: deps
	cmake -S . -B $(BUILD)/bench $(GEN) $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=Release -DEVT_TESTS=OFF >/dev/null
	cmake --build $(BUILD)/bench -j $(JOBS)
	bash scripts/bench.sh $(BUILD)/bench

clean:
	rm -rf $(BUILD) out

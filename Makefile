# Thin wrapper over CMake/CTest. `make run` builds and runs the demo; `make check` installs the
# dependencies, then builds and runs every test (normal, ASan+UBSan, TSan for concurrency tests),
# the Cortex-M freestanding build and a fuzz smoke run.
BUILD    ?= build
GEN      := -G Ninja
JOBS     ?= $(shell nproc)
FUZZ_SECONDS ?= 10
CMAKE_COMMON := -DEVT_SHARED_DIR=$(abspath ../shared)

.PHONY: all deps build run check test test-asan test-tsan cortex-m fuzz fuzz-smoke bench clean

all: build

deps:
	@bash scripts/deps.sh

build: deps
	cmake -S . -B $(BUILD)/normal $(GEN) $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build $(BUILD)/normal -j $(JOBS)

run: build
	bash examples/run-demo.sh $(BUILD)/normal

test: build
	cd $(BUILD)/normal && ctest --output-on-failure -j $(JOBS)

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

fuzz-build: deps
	CC=clang cmake -S . -B $(BUILD)/fuzz $(GEN) $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEVT_FUZZ=ON -DEVT_TESTS=OFF >/dev/null
	cmake --build $(BUILD)/fuzz -j $(JOBS)

fuzz-smoke: fuzz-build
	bash scripts/fuzz.sh $(BUILD)/fuzz $(FUZZ_SECONDS)

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

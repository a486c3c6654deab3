# The two commands of the README's quick start, and the rest of the chores.
#   make run    - build the four binaries and run codepayload-server with its embedded defaults
#                 (installs only what building and running need: scripts/install-deps.sh run)
#   make test   - build everything and run every test (scripts/install-deps.sh test)
# Others: make build, make test-sanitize, make fuzz-smoke, make bench, make bench-scale, make bench-parse, make clean.
#
# test-sanitize builds everything with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer, and the libFuzzer targets in the same tree (one
# build for both: CI's time budget); fuzz-smoke runs the fuzz targets briefly.
# bench-scale measures SQLite against PostgreSQL and 1 to 3 instances behind
# HAProxy on a scratch PostgreSQL (bench/scale.sh; the test packages bring
# postgresql-15 and haproxy); bench-parse measures reading a payload back against
# generating it, in process (bench/parse.sh).

BUILD ?= build
BUILD_ASAN ?= build-asan
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: deps deps-run build run test test-sanitize fuzz-smoke bench bench-scale bench-parse clean

deps:
	@scripts/install-deps.sh test

deps-run:
	@scripts/install-deps.sh run

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

# A build folder that make run configured has no tests: turn them on.
build: deps $(BUILD)/build.ninja
	@grep -q '^CODEPAYLOAD_TESTS:BOOL=ON' $(BUILD)/CMakeCache.txt || cmake -S . -B $(BUILD) -DCODEPAYLOAD_TESTS=ON
	cmake --build $(BUILD) -j $(JOBS)

# Without GoogleTest (a test-only package) a new build folder is configured without the tests.
run: deps-run
	@[ -f $(BUILD)/build.ninja ] || cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DCODEPAYLOAD_TESTS=OFF $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS) --target codepayload-server codepayload-admin codepayload-import codepayload
	CODEPAYLOAD_DATA_DIR=$${CODEPAYLOAD_DATA_DIR:-$(CURDIR)/data} $(BUILD)/server/codepayload-server

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-sanitize:
	CODEPAYLOAD_FUZZ_DEPS=1 scripts/install-deps.sh
	CC=clang CXX=clang++ cmake -S . -B $(BUILD_ASAN) -G Ninja -DCMAKE_BUILD_TYPE=Debug \
	  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DCODEPAYLOAD_SANITIZE=ON -DCODEPAYLOAD_FUZZ=ON
	cmake --build $(BUILD_ASAN) -j $(JOBS)
	cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitizers/lsan.supp:print_suppressions=0 \
	  ctest --output-on-failure -j $(JOBS)

fuzz-smoke:
	CODEPAYLOAD_FUZZ_DEPS=1 scripts/install-deps.sh
	CC=clang CXX=clang++ cmake -S . -B $(BUILD_ASAN) -G Ninja -DCMAKE_BUILD_TYPE=Debug \
	  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DCODEPAYLOAD_SANITIZE=ON -DCODEPAYLOAD_FUZZ=ON
	cmake --build $(BUILD_ASAN) -j $(JOBS) --target codepayload_fuzz_targets
	tests/fuzz/run-smoke.sh $(BUILD_ASAN)

bench:
	CODEPAYLOAD_BENCH_DEPS=1 scripts/install-deps.sh
	cmake -S . -B $(BUILD)-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DCODEPAYLOAD_BENCH=ON -DCODEPAYLOAD_TESTS=OFF
	cmake --build $(BUILD)-bench -j $(JOBS)
	bench/run.sh $(BUILD)-bench

bench-scale:
	CODEPAYLOAD_BENCH_DEPS=1 scripts/install-deps.sh
	cmake -S . -B $(BUILD)-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DCODEPAYLOAD_BENCH=ON -DCODEPAYLOAD_TESTS=OFF
	cmake --build $(BUILD)-bench -j $(JOBS) --target codepayload-server codepayload-admin
	bench/scale.sh $(BUILD)-bench

bench-parse:
	CODEPAYLOAD_BENCH_DEPS=1 scripts/install-deps.sh
	cmake -S . -B $(BUILD)-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DCODEPAYLOAD_BENCH=ON -DCODEPAYLOAD_TESTS=OFF
	cmake --build $(BUILD)-bench -j $(JOBS) --target codepayload_engine_bench codepayload_engine_profile
	bench/parse.sh $(BUILD)-bench

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD)-bench

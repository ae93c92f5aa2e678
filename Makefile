# Thin wrapper over CMake.  The README's two commands are `make demo` and
# `make test`; both install what they need first (scripts/setup.sh).
JOBS ?= $(shell nproc)
BUILD ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
DEB_BUILD ?= build-deb

.PHONY: prove all build asan tsan demo test unit-test bench bench-dask bench-stream install deb deb-fresh clean fuzz fuzz-build fuzz-diff format soak

all: build

build:
	@scripts/setup.sh build
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

asan:
	@scripts/setup.sh build
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DBCAST_SANITIZE=ON >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)

# The unit tests (test_threads.c: plans, one-call ops, materialize and MLIR
# from several host threads, each op splitting across OpenMP threads) under
# ThreadSanitizer.  clang with LLVM's OpenMP runtime, whose libarcher tells
# TSan about OpenMP's own synchronization; the runtime itself is not
# instrumented, hence ignore_noninstrumented_modules.
LLVM_LIB ?= /usr/lib/llvm-14/lib
tsan:
	@scripts/setup.sh tsan
	CC=clang cmake -S . -B $(TSAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DBCAST_TSAN=ON -DBCAST_BUILD_PYTHON=OFF -DBCAST_BUILD_BENCH=OFF >/dev/null
	cmake --build $(TSAN_BUILD) -j $(JOBS) --target bcast_unit
	TSAN_OPTIONS="halt_on_error=1 ignore_noninstrumented_modules=1" \
	  OMP_TOOL_LIBRARIES=$(LLVM_LIB)/libarcher.so $(TSAN_BUILD)/bcast_unit

# libFuzzer harnesses (fuzz/): clang, ASan + UBSan, no OpenMP.  make fuzz
# runs each for FUZZ_SECONDS, one at a time, keeping new corpus entries in
# fuzz/corpus/<harness>/ and crashes in fuzz/crashes/<harness>/;
# FUZZ_TARGETS picks harnesses ("npy mlir").  make fuzz-diff compares bcast
# with NumPy and mlir-opt on random shapes (FUZZ_DIFF_ARGS="--seed N").
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= npy npz mlir shape explicit attr lower
FUZZ_DIFF_ARGS ?=
fuzz-build:
	@scripts/setup.sh fuzz
	CC=clang cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DBCAST_FUZZ=ON -DBCAST_OPENMP=OFF -DBCAST_BUILD_TESTS=OFF \
	  -DBCAST_BUILD_TOOLS=OFF -DBCAST_BUILD_PYTHON=OFF -DBCAST_BUILD_BENCH=OFF >/dev/null
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(addprefix bcast_fuzz_,$(FUZZ_TARGETS))

fuzz: fuzz-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh $(FUZZ_BUILD) $(FUZZ_TARGETS)

fuzz-diff: build
	@scripts/setup.sh test
	/usr/bin/python3 fuzz/diff.py --bcast $(BUILD)/bcast $(FUZZ_DIFF_ARGS)

# Random CLI commands (valid, malformed, under allocation failure, killed)
# and Python library calls for SOAK_SECONDS under ASan + UBSan, each
# checked (scripts/soak.py); SOAK_ARGS="--seed N" replays a run.
SOAK_SECONDS ?= 600
SOAK_ARGS ?=
soak: asan
	/usr/bin/python3 scripts/soak.py --build $(ASAN_BUILD) --seconds $(SOAK_SECONDS) $(SOAK_ARGS)

# Frama-C over the shape core (docs/proofs.md): EVA over every public
# function on every input within the documented limits, WP over the ACSL
# contracts.  Prints the goals proven and the alarms; fails on either.
prove:
	@scripts/setup.sh prove
	scripts/prove.sh

demo: build
	@scripts/demo.sh $(BUILD)/bcast

# Every test, in the release build and again under ASan + UBSan; then the
# Debian package (make deb) unpacked into a scratch root and each part of
# it used from there (tests/deb/test_deb.sh; not a ctest test, as the
# package is its own build, for /usr).
test:
	@scripts/setup.sh test
	$(MAKE) build asan deb
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	cd $(ASAN_BUILD) && ctest --output-on-failure -j $(JOBS)
	tests/deb/test_deb.sh $(DEB_BUILD)/bcast_*.deb

# The text report, the figures as TSV and a chart per section (PNG, SVG)
# go to $(BENCH_OUT); the DRAM cases (3 x 512 MiB) run here, not by default.
BENCH_OUT ?= $(BUILD)/bench
bench:
	@scripts/setup.sh bench
	$(MAKE) build
	mkdir -p $(BENCH_OUT)
	bash -o pipefail -c '{ $(BUILD)/bcast_bench_shape $(BUILD)/bcast && \
	  $(BUILD)/bcast_bench --dram --tsv $(BENCH_OUT)/results.tsv; } 2>&1 | \
	  tee $(BENCH_OUT)/report.txt'
	/usr/bin/python3 bench/chart.py $(BENCH_OUT)/results.tsv $(BENCH_OUT)

# bcast.dask vs dask.array's x + y on a LocalCluster of two worker
# processes (python3-dask, python3-distributed): seconds, input bytes fed
# to tasks and bytes moved between workers, to $(BENCH_OUT)/dask.txt.
bench-dask:
	@scripts/setup.sh test
	$(MAKE) build
	mkdir -p $(BENCH_OUT)
	bash -o pipefail -c 'PYTHONPATH=$(BUILD)/python /usr/bin/python3 \
	  bench/dask_bench.py --tsv $(BENCH_OUT)/dask.tsv | tee $(BENCH_OUT)/dask.txt'

# An output of twice the machine's memory written by bcast tile by tile,
# against the disk's sequential write speed measured in the same run, and
# bcast's peak resident memory (needs about 3x memory of free disk).
bench-stream:
	@scripts/setup.sh build
	$(MAKE) build
	mkdir -p $(BENCH_OUT)
	bash -o pipefail -c '/usr/bin/python3 bench/stream_bench.py $(BUILD)/bcast \
	  --tsv $(BENCH_OUT)/stream.tsv | tee $(BENCH_OUT)/stream.txt'

install: build
	cmake --install $(BUILD)

# The Debian package $(DEB_BUILD)/bcast_<version>_<arch>.deb (docs/packaging.md):
# a build for prefix /usr with Debian's compiler flags (dpkg-buildflags:
# hardening, -ffile-prefix-map), packed by CPack's DEB generator
# (cmake/deb.cmake).  Install it with apt-get install ./build-deb/bcast_*.deb.
deb:
	@scripts/setup.sh deb
	cmake -S . -B $(DEB_BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
	  -DBCAST_BUILD_PYTHON=ON -DPython3_EXECUTABLE=/usr/bin/python3 \
	  -DBCAST_BUILD_TESTS=OFF -DBCAST_BUILD_BENCH=OFF \
	  -DCMAKE_C_FLAGS="$$(dpkg-buildflags --get CFLAGS) $$(dpkg-buildflags --get CPPFLAGS)" \
	  -DCMAKE_EXE_LINKER_FLAGS="$$(dpkg-buildflags --get LDFLAGS)" \
	  -DCMAKE_SHARED_LINKER_FLAGS="$$(dpkg-buildflags --get LDFLAGS)" \
	  -DCMAKE_MODULE_LINKER_FLAGS="$$(dpkg-buildflags --get LDFLAGS)" >/dev/null
	cmake --build $(DEB_BUILD) -j $(JOBS)
	rm -f $(DEB_BUILD)/bcast_*.deb
	cd $(DEB_BUILD) && cpack -G DEB

# The package installed with apt-get on a fresh Debian 12 made by
# debootstrap in a scratch directory, and used there (needs root and the
# Debian mirror; about a minute; tests/deb/test_deb_fresh.sh).
deb-fresh: deb
	@scripts/setup.sh deb-fresh
	tests/deb/test_deb_fresh.sh $(DEB_BUILD)/bcast_*.deb

# The tracked C sources in bcast's style (.clang-format), then docs/api.md
# regenerated from the reformatted headers.
format:
	@command -v clang-format >/dev/null || { apt-get install -y -qq clang-format; }
	git ls-files '*.c' '*.h' | grep -v '^fuzz/corpus/' | xargs clang-format -i
	/usr/bin/python3 scripts/gen_api_doc.py --write

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD)

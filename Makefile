# Thin wrapper over CMake.  The README's two commands are `make demo` and
# `make test`; both install what they need first (scripts/setup.sh).
JOBS ?= $(shell nproc)
BUILD ?= build
ASAN_BUILD ?= build-asan

.PHONY: all build asan demo test unit-test bench install clean fuzz

all: build

build:
	@scripts/setup.sh build
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

asan:
	@scripts/setup.sh build
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DBCAST_SANITIZE=ON >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)

demo: build
	@scripts/demo.sh $(BUILD)/bcast

# Every test, in the release build and again under ASan + UBSan.
test:
	@scripts/setup.sh test
	$(MAKE) build asan
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	cd $(ASAN_BUILD) && ctest --output-on-failure -j $(JOBS)

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

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)

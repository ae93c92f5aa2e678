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

bench:
	@scripts/setup.sh bench
	$(MAKE) build
	$(BUILD)/bcast_bench_shape $(BUILD)/bcast
	$(BUILD)/bcast_bench

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)

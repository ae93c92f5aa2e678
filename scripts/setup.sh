#!/usr/bin/env bash
# Installs what bcast needs on a Debian 12 machine, skipping what is there.
#   scripts/setup.sh build   compiler, CMake, OpenMP runtime, zlib, and
#                            python3-dev with python3-numpy for the Python
#                            module
#   scripts/setup.sh test    also mlir-22-tools (the oracle), python3-pytest
#                            with python3-hypothesis, pkgconf, clang,
#                            groff-base and man-db (the package tests),
#                            python3-dask and python3-distributed (bcast.dask),
#                            python3-mypy (stubtest, the type stubs' test),
#                            and what make deb needs (the .deb's test)
#   scripts/setup.sh deb     also dpkg-dev and file (make deb: Debian's
#                            compiler flags, dpkg-shlibdeps and CPack's
#                            ELF detection)
#   scripts/setup.sh deb-fresh  also debootstrap (make deb-fresh: the
#                            package on a fresh Debian 12 root)
#   scripts/setup.sh bench   also python3-matplotlib (bench/chart.py),
#                            python3-dask and python3-distributed
#   scripts/setup.sh tsan    also clang and LLVM's OpenMP runtime with its
#                            ThreadSanitizer tool, libarcher (make tsan)
#   scripts/setup.sh fuzz    also clang and libclang-rt-14-dev, which holds
#                            libFuzzer (make fuzz)
#   scripts/setup.sh prove   also Frama-C, Why3 and the Z3 and CVC4 provers
#                            (make prove)
set -euo pipefail
what=${1:-build}
need=()
have() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
for p in gcc make cmake libgomp1; do have "$p" || need+=("$p"); done
# zlib inflates np.savez_compressed members and sums CRC-32s (src/npy).
have zlib1g-dev || need+=(zlib1g-dev)
# The Python module (import bcast) builds against Debian's interpreter.
for p in python3 python3-dev python3-numpy; do have "$p" || need+=("$p"); done
if [ "$what" = test ]; then
  have python3-pytest || need+=(python3-pytest)
  # Hypothesis: tests/python/test_adversarial.py and test_properties.py.
  have python3-hypothesis || need+=(python3-hypothesis)
  # bcast.dask and its tests on a dask.distributed LocalCluster.
  for p in python3-dask python3-distributed; do have "$p" || need+=("$p"); done
  # mypy's stubtest: the stubtest test checks python/bcast/*.pyi against
  # the built module.
  have python3-mypy || need+=(python3-mypy)
  # pkg-config, clang and groff: the package test links through pkg-config
  # with both compilers and renders the man page.
  for p in mlir-22-tools pkgconf clang groff-base; do have "$p" || need+=("$p"); done
  # tests/deb/test_deb.sh reads the installed man page with man -l.
  have man-db || need+=(man-db)
fi
if [ "$what" = deb ] || [ "$what" = deb-fresh ] || [ "$what" = test ]; then
  # make deb: dpkg-buildflags and dpkg-shlibdeps (dpkg-dev); CPack's DEB
  # generator finds the ELF files to give dpkg-shlibdeps with file.
  for p in dpkg-dev file; do have "$p" || need+=("$p"); done
fi
if [ "$what" = deb-fresh ]; then
  # make deb-fresh builds a minimal Debian 12 root to install the package in.
  have debootstrap || need+=(debootstrap)
fi
if [ "$what" = tsan ]; then
  # make tsan builds with clang against libomp, whose libarcher.so makes
  # OpenMP's barriers visible to ThreadSanitizer (libgomp's are not).
  for p in clang libomp-14-dev libclang-rt-14-dev; do have "$p" || need+=("$p"); done
fi
if [ "$what" = fuzz ]; then
  # clang's -fsanitize=fuzzer links libclang_rt.fuzzer from libclang-rt-14-dev.
  for p in clang libclang-rt-14-dev; do have "$p" || need+=("$p"); done
fi
if [ "$what" = prove ]; then
  # make prove (scripts/prove.sh): Frama-C 25's EVA and WP plugins check the
  # shape core; WP hands its goals through Why3 to Z3 and CVC4.  (Debian's
  # cvc5 1.0.3 is newer than Why3 1.5 knows, so it would go unused.)
  for p in frama-c-base why3 z3 cvc4; do have "$p" || need+=("$p"); done
fi
if [ "$what" = bench ]; then
  # make bench draws its charts with bench/chart.py under /usr/bin/python3,
  # and times bcast.dask beside dask.array on a dask.distributed cluster.
  for p in python3-matplotlib python3-dask python3-distributed; do
    have "$p" || need+=("$p")
  done
fi
[ ${#need[@]} -eq 0 ] && exit 0
echo "setup: installing ${need[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "setup: missing Debian packages: ${need[*]}; run as root or install them" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}"

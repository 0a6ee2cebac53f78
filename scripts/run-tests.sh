#!/usr/bin/env bash
# Installs what is missing, builds LoopLab twice and runs the tests through CTest: first
# everything with AddressSanitizer and UndefinedBehaviorSanitizer (UBSan on the libraries and
# programs, not on the suites' own files; every suite, the GUI suites under Xvfb), then a
# release build of the core, the command-line tool, the
# benchmarks and the suites whose accuracy studies the sanitizers would make too slow
# (they skip them there; the list is in tests/CMakeLists.txt). The other suites would only
# repeat the same arithmetic, and the workbench's suites test lifetimes and events:
# `cmake --preset release` alone builds the workbench and every core suite, and
# -DLOOPLAB_BUILD_GUI_TESTS=ON adds the GUI suites. Between the two builds it fuzzes the
# model-file reader for 60 s and, beside it, statics and modes and the study-file reader
# for 30 s each and the URDF and MJCF importers for 20 s (docs/fuzzing.md). Fails if a test fails or the fuzzer finds
# anything. The release suites then run a second time under other OpenBLAS kernels (below).
# docs/architecture.md ("Builds and tests") gives the time of each phase. The last lines are
# CTest's summary of that second run.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
jobs=$(nproc)

cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs"
ctest --preset asan

# A bounded fuzz run: clang build of the fuzz targets' core sources in build/fuzz, then 80 s
# of libFuzzer on two cores. Exits non-zero on a finding.
./scripts/run-fuzzer.sh 60

cmake --preset release -DLOOPLAB_BUILD_UI=OFF -DLOOPLAB_BUILD_GUI_TESTS=OFF -DLOOPLAB_ALL_SUITES=OFF >/dev/null
cmake --build --preset release -j "$jobs"
ctest --preset release

# The release suites again under a second set of OpenBLAS kernels. Debian's OpenBLAS picks
# its kernels by CPU at run time, so a result or a verdict that depends on them would pass
# on one machine and fail on another (docs/architecture.md, "Results on any CPU"): this run
# shows such a dependence on whatever machine runs the tests. The second set is one every
# CPU that has its instructions runs: Haswell's (AVX2) where OpenBLAS chose another,
# else Sandybridge's (AVX), else Prescott's.
chosen=$(OPENBLAS_VERBOSE=2 build/release/app/looplab-cli --help 2>&1 >/dev/null | sed -n 's/^Core: //p' | head -n 1)
if grep -qw avx2 /proc/cpuinfo && [ "$chosen" != Haswell ]; then second=Haswell
elif grep -qw avx /proc/cpuinfo && [ "$chosen" != Sandybridge ]; then second=Sandybridge
elif [ "$chosen" != Prescott ]; then second=Prescott
else second=Core2
fi
echo "The release suites again with OpenBLAS's $second kernels (its own choice on this CPU: ${chosen:-unknown})"
OPENBLAS_CORETYPE=$second ctest --preset release

#!/usr/bin/env bash
# Installs what is missing, builds LoopLab twice (everything with AddressSanitizer and
# UndefinedBehaviorSanitizer, then a release build) and runs every test through CTest
# in both; between the two it fuzzes the model-file reader for 60 s (docs/fuzzing.md).
# Fails if a test fails or the fuzzer finds anything. The last lines are CTest's summary
# of the full release suite.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
jobs=$(nproc)

cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs"
ctest --preset asan

# A bounded fuzz run of the model-file reader and builder: clang build of the loader's
# core sources in build/fuzz, then 60 s of libFuzzer. Exits non-zero on a finding.
./scripts/run-fuzzer.sh 60

cmake --preset release >/dev/null
cmake --build --preset release -j "$jobs"
ctest --preset release

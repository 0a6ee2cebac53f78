#!/usr/bin/env bash
# Installs what is missing, builds LoopLab twice (everything with AddressSanitizer and
# UndefinedBehaviorSanitizer, then a release build) and runs every test through CTest
# in both. The last lines are CTest's summary of the full release suite.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
jobs=$(nproc)

cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs"
ctest --preset asan

cmake --preset release >/dev/null
cmake --build --preset release -j "$jobs"
ctest --preset release

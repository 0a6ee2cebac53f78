#!/usr/bin/env bash
# Fuzzes the model-file reader and builder with libFuzzer for SECONDS (default 60):
# installs clang and libFuzzer if missing, builds fuzz/fuzz_model_loader in build/fuzz
# with AddressSanitizer and UndefinedBehaviorSanitizer, seeds it with the examples and the
# malformed test files, and runs it. Exits non-zero if it found a crash, a sanitizer
# report, a leak, a timeout or a broken property; the inputs are kept in build/fuzz/findings.
#
#   scripts/run-fuzzer.sh [SECONDS]
#
# Environment: FUZZ_JOBS (default 1) parallel fuzzing processes; FUZZ_BUILD_JOBS (default
# the number of cores) compile jobs. See docs/fuzzing.md.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
jobs=${FUZZ_JOBS:-1}
build_jobs=${FUZZ_BUILD_JOBS:-$(nproc)}
if ! [[ "$seconds" =~ ^[0-9]+$ && "$jobs" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: scripts/run-fuzzer.sh [SECONDS]   (FUZZ_JOBS=N for N processes)" >&2
  exit 2
fi

# The project's packages (the top-level CMakeLists finds them all), and the compiler with
# libFuzzer's runtime.
./scripts/install-deps.sh clang libclang-rt-14-dev

build=build/fuzz
start=$(date +%s)
if [ ! -f "$build/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DLOOPLAB_BUILD_FUZZERS=ON -DLOOPLAB_BUILD_UI=OFF -DLOOPLAB_BUILD_TESTS=OFF \
    -DLOOPLAB_BUILD_BENCHMARKS=OFF >/dev/null
fi
cmake --build "$build" -j "$build_jobs" --target fuzz_model_loader
echo "fuzz: built in $(( $(date +%s) - start )) s"

# The seeds are copied at every run; the corpus keeps what the fuzzer found interesting
# between runs, the findings what made it fail.
seeds=$build/seeds
corpus=$build/corpus
findings=$build/findings
rm -rf "$seeds"
mkdir -p "$seeds" "$corpus" "$findings"
cp resources/examples/*.json tests/data/malformed/*.json "$seeds/"
before=$(find "$findings" -type f | wc -l)
log=$build/fuzz.log
rm -f "$build"/fuzz-*.log

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
echo "fuzz: running $jobs process(es) for $seconds s (log: $log)"
parallel=()
[ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
status=0
(cd "$build" && exec ./fuzz/fuzz_model_loader corpus seeds \
    -dict=../../fuzz/model.dict -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix=findings/ -print_final_stats=1 "${parallel[@]}") \
  >"$log" 2>&1 || status=$?
# With -jobs, every process writes build/fuzz/fuzz-N.log.
for f in "$build"/fuzz-*.log; do [ -f "$f" ] && cat "$f" >>"$log"; done

after=$(find "$findings" -type f | wc -l)
grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|Done)" "$log" | awk '!seen[$0]++' || true
if [ "$status" -ne 0 ] || [ "$after" -gt "$before" ]; then
  echo "fuzz: FAILED (exit status $status); the report:" >&2
  grep -E -B2 -A40 "ERROR: |runtime error|\*\*\* fuzz_model_loader|deadly signal" "$log" | head -120 >&2 || tail -60 "$log" >&2
  echo "fuzz: the inputs are in $findings (see docs/fuzzing.md to reproduce and minimise):" >&2
  find "$findings" -type f -newer "$build/seeds" >&2
  exit 1
fi
echo "fuzz: no findings in $seconds s ($(find "$corpus" -type f | wc -l) inputs in the corpus)"

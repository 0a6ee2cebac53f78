#!/usr/bin/env bash
# Fuzzes the model-file reader and builder with libFuzzer for SECONDS (default 60), then
# statics and modes on small fuzzed models for SOLVER_SECONDS (default 30): installs clang
# and libFuzzer if missing, builds fuzz/fuzz_model_loader and fuzz/fuzz_statics_modes in
# build/fuzz with AddressSanitizer and UndefinedBehaviorSanitizer, seeds them with the
# examples, fuzz/seeds and the malformed test files, and runs them. Exits non-zero if
# either found a crash, a sanitizer report, a leak, a timeout or a broken property; the
# inputs are kept in build/fuzz/findings.
#
#   scripts/run-fuzzer.sh [SECONDS [SOLVER_SECONDS]]
#
# Environment: FUZZ_JOBS (default 1) parallel fuzzing processes; FUZZ_BUILD_JOBS (default
# the number of cores) compile jobs. See docs/fuzzing.md.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
solver_seconds=${2:-30}
jobs=${FUZZ_JOBS:-1}
build_jobs=${FUZZ_BUILD_JOBS:-$(nproc)}
if ! [[ "$seconds" =~ ^[0-9]+$ && "$solver_seconds" =~ ^[0-9]+$ && "$jobs" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: scripts/run-fuzzer.sh [SECONDS [SOLVER_SECONDS]]   (FUZZ_JOBS=N for N processes)" >&2
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
cmake --build "$build" -j "$build_jobs" --target fuzz_model_loader fuzz_statics_modes
echo "fuzz: built in $(( $(date +%s) - start )) s"

# The seeds are copied at every run; each target's corpus keeps what it found interesting
# between runs, the findings what made it fail.
seeds=$build/seeds
findings=$build/findings
rm -rf "$seeds"
mkdir -p "$seeds" "$findings"
cp resources/examples/*.json fuzz/seeds/*.json tests/data/malformed/*.json "$seeds/"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
parallel=()
[ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
failed=0

# fuzz TARGET CORPUS SECONDS LOG
fuzz() {
  local target=$1 corpus=$2 secs=$3 log=$4
  [ "$secs" -gt 0 ] || return 0
  mkdir -p "$build/$corpus"
  local before after status=0
  before=$(find "$findings" -type f | wc -l)
  rm -f "$build"/fuzz-*.log
  echo "fuzz: running $target, $jobs process(es) for $secs s (log: $log)"
  (cd "$build" && exec "./fuzz/$target" "$corpus" seeds \
      -dict=../../fuzz/model.dict -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix=findings/ -print_final_stats=1 "${parallel[@]}") \
    >"$log" 2>&1 || status=$?
  # With -jobs, every process writes build/fuzz/fuzz-N.log.
  for f in "$build"/fuzz-*.log; do [ -f "$f" ] && cat "$f" >>"$log"; done
  after=$(find "$findings" -type f | wc -l)
  grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|Done)" "$log" | awk '!seen[$0]++' || true
  if [ "$status" -ne 0 ] || [ "$after" -gt "$before" ]; then
    echo "fuzz: $target FAILED (exit status $status); the report:" >&2
    grep -E -B2 -A40 "ERROR: |runtime error|\*\*\* fuzz_|deadly signal" "$log" | head -120 >&2 || tail -60 "$log" >&2
    echo "fuzz: the inputs are in $findings (see docs/fuzzing.md to reproduce and minimise):" >&2
    find "$findings" -type f -newer "$build/seeds" >&2
    failed=1
    return 0
  fi
  echo "fuzz: $target: no findings in $secs s ($(find "$build/$corpus" -type f | wc -l) inputs in its corpus)"
}

fuzz fuzz_model_loader corpus "$seconds" "$build/fuzz.log"
fuzz fuzz_statics_modes corpus-statics "$solver_seconds" "$build/fuzz_statics_modes.log"
exit "$failed"

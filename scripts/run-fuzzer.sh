#!/usr/bin/env bash
# Fuzzes the model-file reader and builder with libFuzzer for SECONDS (default 60) and, at
# the same time, statics and modes on small fuzzed models for SOLVER_SECONDS (default 30)
# followed by the study-file reader for STUDY_SECONDS (default 30) and the URDF and MJCF
# importers for IMPORT_SECONDS (default 20), one process each:
# installs clang
# and libFuzzer if missing, builds fuzz/fuzz_model_loader, fuzz_statics_modes, fuzz_study_file and
# fuzz_model_import in
# build/fuzz with AddressSanitizer and UndefinedBehaviorSanitizer, seeds them with the
# examples, fuzz/seeds and the malformed test files (the study reader with
# resources/studies, the importers with tests/data/exchange and fuzz/seeds-import), and runs
# them. Exits non-zero if
# either found a crash, a sanitizer report, a leak, a timeout or a broken property; the
# inputs are kept in build/fuzz/findings (those of earlier runs move to findings-earlier).
#
#   scripts/run-fuzzer.sh [SECONDS [SOLVER_SECONDS [STUDY_SECONDS [IMPORT_SECONDS]]]]
#
# Environment: FUZZ_JOBS (default 1) parallel fuzzing processes; FUZZ_BUILD_JOBS (default
# the number of cores) compile jobs. See docs/fuzzing.md.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
solver_seconds=${2:-30}
study_seconds=${3:-30}
import_seconds=${4:-20}
jobs=${FUZZ_JOBS:-1}
build_jobs=${FUZZ_BUILD_JOBS:-$(nproc)}
if ! [[ "$seconds" =~ ^[0-9]+$ && "$solver_seconds" =~ ^[0-9]+$ && "$study_seconds" =~ ^[0-9]+$ && "$import_seconds" =~ ^[0-9]+$ &&
      "$jobs" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: scripts/run-fuzzer.sh [SECONDS [SOLVER_SECONDS [STUDY_SECONDS [IMPORT_SECONDS]]]]   (FUZZ_JOBS=N for N processes)" >&2
  exit 2
fi

# The project's packages (the top-level CMakeLists finds them all), and the compiler with
# libFuzzer's runtime.
./scripts/install-deps.sh clang libclang-rt-14-dev

build=build/fuzz
start=$(date +%s)
if [ ! -f "$build/build.ninja" ]; then
  # A unity build, as the presets: the sources share their Eigen and JSON instantiations
  # (220 s of compiling instead of 343 s).
  CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DLOOPLAB_BUILD_FUZZERS=ON -DLOOPLAB_BUILD_UI=OFF -DLOOPLAB_BUILD_TESTS=OFF \
    -DLOOPLAB_BUILD_BENCHMARKS=OFF -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16 >/dev/null
fi
cmake --build "$build" -j "$build_jobs" --target fuzz_model_loader fuzz_statics_modes fuzz_study_file fuzz_model_import
echo "fuzz: built in $(( $(date +%s) - start )) s"

# The seeds are copied at every run; each target's corpus keeps what it found interesting
# between runs, the findings what made it fail.
seeds=$build/seeds
findings=$build/findings
rm -rf "$seeds"
mkdir -p "$seeds" "$findings"
cp resources/examples/*.json fuzz/seeds/*.json tests/data/malformed/*.json "$seeds/"
study_seeds=$build/seeds-study
rm -rf "$study_seeds"
mkdir -p "$study_seeds"
cp resources/studies/*.json "$study_seeds/"
import_seeds=$build/seeds-import
rm -rf "$import_seeds"
mkdir -p "$import_seeds"
cp tests/data/exchange/*.xml tests/data/exchange/*.urdf fuzz/seeds-import/* "$import_seeds/"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
parallel=()
[ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
here=$(pwd)

# fuzz TARGET CORPUS SEEDS DICTIONARY SECONDS LOG: returns non-zero on a finding. Each
# target works in a folder of its own (libFuzzer's -jobs write fuzz-N.log into it) and names
# its findings findings/TARGET-crash-..., so that targets can run at once.
fuzz() {
  local target=$1 corpus=$2 seeds=$3 dict=$4 secs=$5 log=$6
  [ "$secs" -gt 0 ] || return 0
  local work="$here/$build/work-$target" status=0
  rm -rf "$work"
  mkdir -p "$here/$build/$corpus" "$work"
  echo "fuzz: running $target, $jobs process(es) for $secs s (log: $log)"
  # Standard input closed to the target: a study naming /dev/stdin as its model reads nothing.
  (cd "$work" && exec "$here/$build/fuzz/$target" "$here/$build/$corpus" "$here/$seeds" \
      -dict="$here/$dict" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$here/$findings/$target-" -print_final_stats=1 "${parallel[@]}") \
    </dev/null >"$log" 2>&1 || status=$?
  for f in "$work"/fuzz-*.log; do [ -f "$f" ] && cat "$f" >>"$log"; done
  local found
  found=$(find "$findings" -type f -name "$target-*" | wc -l)
  grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|Done)" "$log" | awk -v t="$target" '!seen[$0]++ {print t ": " $0}' || true
  if [ "$status" -ne 0 ] || [ "$found" -gt 0 ]; then
    echo "fuzz: $target FAILED (exit status $status); the report:" >&2
    grep -E -B2 -A40 "ERROR: |runtime error|\*\*\* fuzz_|deadly signal" "$log" | head -120 >&2 || tail -60 "$log" >&2
    echo "fuzz: the inputs are in $findings (see docs/fuzzing.md to reproduce and minimise):" >&2
    find "$findings" -type f -name "$target-*" >&2
    return 1
  fi
  echo "fuzz: $target: no findings in $secs s ($(find "$build/$corpus" -type f | wc -l) inputs in its corpus)"
}

# Findings of earlier runs are moved aside, so that only this run's make it fail.
if [ -n "$(ls -A "$findings")" ]; then
  mkdir -p "$build/findings-earlier"
  mv "$findings"/* "$build/findings-earlier/"
fi
# The model reader beside the other two in turn, one process each (FUZZ_JOBS each): a
# fuzzing process uses one core.
fuzz fuzz_model_loader corpus "$seeds" fuzz/model.dict "$seconds" "$build/fuzz.log" & loader=$!
( status=0
  fuzz fuzz_statics_modes corpus-statics "$seeds" fuzz/model.dict "$solver_seconds" \
    "$build/fuzz_statics_modes.log" || status=1
  fuzz fuzz_study_file corpus-study "$study_seeds" fuzz/study.dict "$study_seconds" \
    "$build/fuzz_study_file.log" || status=1
  fuzz fuzz_model_import corpus-import "$import_seeds" fuzz/xml.dict "$import_seconds" \
    "$build/fuzz_model_import.log" || status=1
  exit "$status" ) & others=$!
failed=0
wait "$loader" || failed=1
wait "$others" || failed=1
exit "$failed"

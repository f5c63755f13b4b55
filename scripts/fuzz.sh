#!/usr/bin/env bash
# The parsers' fuzzers (tests/fuzz/, libFuzzer + ASan + UBSan, clang 14).
#   bash scripts/fuzz.sh [SECONDS]          each harness for SECONDS (default 20)
#   bash scripts/fuzz.sh --runs N           each harness for N executions: what CI runs (5,000 each)
# The mutations follow FUZZ_SEED (default 1): with --runs and a fresh corpus a run is repeatable.
# Corpora start from assets/ and tests/fuzz/seeds/ and grow in build-fuzz/corpus/NAME (kept between
# runs). A crash stops the run with a non-zero exit; its input is kept in build-fuzz/crashes/ and
# becomes a regression test (tests/fuzz/regressions/NAME/, replayed by the plain test suite).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
SECONDS_EACH=20
RUNS=""
if [ "${1:-}" = "--runs" ]; then RUNS=$2; else SECONDS_EACH=${1:-20}; fi
JOBS=${JOBS:-$(nproc)}
# FUZZ_ASAN=0: UBSan only (build-fuzz-fast/), about 5x faster on the YAML readers, for the long runs;
# crashes, hangs, aborts and the harnesses' properties are still caught, silent memory errors not.
ASAN=${FUZZ_ASAN:-1}
BUILD="$ROOT/build-fuzz"
[ "$ASAN" = 0 ] && BUILD="$ROOT/build-fuzz-fast"
GENERATOR=()
[ -f "$BUILD/CMakeCache.txt" ] || GENERATOR=(-G Ninja)  # a new folder: Ninja keeps both cores busy across libraries
CXX=${FUZZ_CXX:-clang++-14} CC=${FUZZ_CC:-clang-14} cmake -S "$ROOT" -B "$BUILD" "${GENERATOR[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DVEDETTE_FUZZ=ON -DVEDETTE_FUZZ_ASAN=$([ "$ASAN" = 0 ] && echo OFF || echo ON) -DVEDETTE_BUILD_TESTS=OFF -DVEDETTE_BUILD_BENCH=OFF >/dev/null
cmake --build "$BUILD" -j"$JOBS" --target fuzzers

seed() {  # seed NAME FILES...: copy seed files into the corpus
  local dir="$BUILD/corpus/$1"
  shift
  mkdir -p "$dir"
  for f in "$@"; do [ -f "$f" ] && cp "$f" "$dir/seed_$(basename "$f")"; done
  return 0
}
seed scene_fuzz assets/scenes/*.yaml assets/demo/roster.yaml assets/rosters/*.yaml assets/clips/example_roster.yaml
seed roster_fuzz assets/rosters/*.yaml assets/demo/roster.yaml assets/clips/example_roster.yaml
seed ruleset_file_fuzz assets/rulesets/*.yaml
seed clip_script_fuzz assets/clips/*.clip.yaml
seed camera_file_fuzz tests/fuzz/seeds/camera/*
seed live_settings_fuzz tests/fuzz/seeds/settings/*
seed event_log_fuzz tests/fuzz/seeds/event_log/*
seed http_request_fuzz tests/fuzz/seeds/http/*
for d in tests/fuzz/regressions/*/; do [ -d "$d" ] && seed "$(basename "$d")" "$d"*; done

export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:allocator_may_return_null=1"
export LSAN_OPTIONS="suppressions=$ROOT/tests/sanitizer/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$ROOT/tests/sanitizer/ubsan.supp"
mkdir -p "$BUILD/crashes"
status=0
printf '%-20s %12s %10s %8s %s\n' harness executions exec/s seconds result
for name in scene_fuzz roster_fuzz ruleset_file_fuzz clip_script_fuzz camera_file_fuzz live_settings_fuzz event_log_fuzz http_request_fuzz; do
  dict=()
  case $name in scene_fuzz | roster_fuzz | ruleset_file_fuzz | clip_script_fuzz) dict=(-dict="$ROOT/tests/fuzz/yaml.dict") ;; esac
  limit=(-max_total_time="$SECONDS_EACH")
  [ -n "$RUNS" ] && limit=(-runs="$RUNS")
  log="$BUILD/$name.log"
  start=$(date +%s)
  # Each input is given 10 s and 2 GiB: a slower or larger one is a hang or a memory bomb, found.
  if (cd "$BUILD" && "./tests/fuzz/$name" "${limit[@]}" "${dict[@]}" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
      -seed="${FUZZ_SEED:-1}" -artifact_prefix="$BUILD/crashes/$name-" -print_final_stats=1 "$BUILD/corpus/$name" >"$log" 2>&1); then
    result=ok
  else
    result="CRASH (see $log and $BUILD/crashes/)"
    status=1
    # CI keeps neither file: what went wrong and the input that did it go to the output.
    { echo "---- $name: the end of its log"; grep -v -E '^#[0-9]+' "$log" | tail -n 40
      find "$BUILD/crashes" -name "$name-*" -newermt "@$start" | while read -r f; do
        echo "---- $f (base64)"; head -c 4096 "$f" | base64
      done; } >&2
  fi
  secs=$(($(date +%s) - start))
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  printf '%-20s %12s %10s %8s %s\n' "$name" "$execs" "$rate" "$secs" "$result"
done
exit $status

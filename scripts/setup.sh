#!/usr/bin/env bash
# Vedette's one set-up script. On a fresh Debian 12 machine:
#   bash scripts/setup.sh demo    install what is missing, build, run the demo battle
#   bash scripts/setup.sh test    install what is missing, build, run every test (also under ASan+UBSan)
#   bash scripts/setup.sh build   install what is missing and build the program (build/app/vedette)
# Environment: JOBS (parallel build jobs, default: number of cores), SKIP_SANITIZE=1 to skip the
# sanitizer pass of `test`, FUZZ_RUNS (each parser fuzzer's executions in `test`, default 5000; 0 skips).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
JOBS=${JOBS:-$(nproc)}

# Every dependency is a Debian 12 package; nothing is downloaded at build time.
# What the program needs (ffmpeg is its video encoder):
PACKAGES=(cmake g++ make pkg-config libopencv-dev libopencv-contrib-dev libeigen3-dev libglfw3-dev
  libimgui-dev libyaml-cpp-dev nlohmann-json3-dev libcli11-dev ffmpeg libwebsocketpp-dev libasio-dev)
# What `test` needs besides: GoogleTest; a virtual display for the windows' tests; Chromium for the
# spectator page's; AprilTag 3 for the benchmarks' comparison; clang and libFuzzer for the parsers'
# fuzzers (scripts/fuzz.sh). Chromium alone is most of the download, so `demo` leaves these out.
TEST_PACKAGES=(libgtest-dev xvfb xauth chromium libapriltag-dev clang-14 libfuzzer-14-dev)

install_deps() {  # install_deps [EXTRA PACKAGES...]
  local missing=() wanted=("${PACKAGES[@]}" "$@")
  for p in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]} == 0)); then
    echo "== dependencies: all ${#wanted[@]} Debian packages present"
    return
  fi
  echo "== installing: ${missing[*]}"
  local SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

build() {  # build DIR [cmake args...]: everything (tests and benchmarks included)
  local dir=$1
  shift
  cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVEDETTE_BUILD_TESTS=ON -DVEDETTE_BUILD_BENCH=ON "$@" >/dev/null
  cmake --build "$dir" -j"$JOBS"
}

build_app() {  # build DIR: the vedette executable alone (what the demo needs: no tests, no benchmarks)
  cmake -S "$ROOT" -B "$1" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVEDETTE_BUILD_TESTS=OFF -DVEDETTE_BUILD_BENCH=OFF >/dev/null
  cmake --build "$1" -j"$JOBS" --target vedette
}

run_tests() {  # run_tests DIR
  # Under a virtual display so the live-window tests run for real.
  (cd "$1" && xvfb-run -a -s '-screen 0 1280x720x24' ctest --output-on-failure -j"$JOBS" --timeout 600)
}

cmd=${1:-}
case "$cmd" in
  demo)
    install_deps
    build_app "$ROOT/build"
    exec "$ROOT/build/app/vedette" demo
    ;;
  test)
    install_deps "${TEST_PACKAGES[@]}"
    echo "== build (RelWithDebInfo)"
    build "$ROOT/build"
    echo "== tests"
    run_tests "$ROOT/build"
    if [ "${FUZZ_RUNS:-5000}" != "0" ]; then
      echo "== parser fuzzers, ${FUZZ_RUNS:-5000} executions each (clang, libFuzzer + ASan + UBSan)"
      bash "$ROOT/scripts/fuzz.sh" --runs "${FUZZ_RUNS:-5000}"
    fi
    if [ "${SKIP_SANITIZE:-0}" != "1" ]; then
      echo "== build with AddressSanitizer + UndefinedBehaviorSanitizer"
      build "$ROOT/build-asan" -DVEDETTE_SANITIZE=ON -DVEDETTE_BUILD_BENCH=OFF
      echo "== tests under ASan + UBSan"
      export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1"
      export LSAN_OPTIONS="suppressions=$ROOT/tests/sanitizer/lsan.supp:print_suppressions=0"
      export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$ROOT/tests/sanitizer/ubsan.supp"
      run_tests "$ROOT/build-asan"
    fi
    ;;
  build)
    install_deps
    build_app "$ROOT/build"
    ;;
  *)
    sed -n '2,8p' "$0"
    exit 2
    ;;
esac

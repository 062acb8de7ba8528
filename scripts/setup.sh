#!/usr/bin/env bash
# Makes a fresh Debian/Ubuntu machine ready for one job: installs the system packages the job needs
# that are missing, the npm packages when the lock file changed, then builds (incrementally) what
# the job runs. Quick when everything is already there.
#   bash scripts/setup.sh [PART...]
#   serve         the WebAssembly engine, and nothing else: what the lesson needs to be served
#                 (npm start, build:offline, build:scorm, bench:live)
#   native        the native preset: the core's tests, the benchmarks, the training tools
#   native-debug  the tests under AddressSanitizer and UndefinedBehaviorSanitizer
#   wasm          the wasm preset whole: the engine and the tests under Node
#   fuzz          the libFuzzer target (clang 14)
#   browser       Chromium and the font sets the browser tests lay the pages out with
#   lint          clang-format
#   test          all of them (npm test); also what no PART means
# Build output goes to build/logs/<preset>.log (scripts/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(test)

# package: a file or command that shows it is installed
declare -A marker=(
  [emscripten]=/usr/bin/em++
  [libeigen3-dev]=/usr/include/eigen3/Eigen/Core
  [catch2]=/usr/include/catch2/catch.hpp
  [nlohmann-json3-dev]=/usr/include/nlohmann/json.hpp
  [cmake]=/usr/bin/cmake
  [make]=/usr/bin/make
  [g++]=/usr/bin/g++
  [clang-format]=/usr/bin/clang-format
  # the compiler cache the test builds go through (CMakeLists.txt), so a new clone compiles only
  # what no clone on this machine compiled before
  [ccache]=/usr/bin/ccache
  # clang 14 and its libFuzzer and sanitizer runtimes, for the fuzz preset (emscripten uses the
  # same clang)
  [clang-14]=/usr/bin/clang++-14
  [libclang-rt-14-dev]=/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a
  [chromium]=/usr/bin/chromium
  # The font sets the browser tests lay the pages out with (tests/e2e/fonts/): a fresh machine's
  # DejaVu, and a fuller desktop's Noto and Liberation.
  [fonts-dejavu-core]=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
  [fonts-noto-core]=/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf
  [fonts-liberation2]=/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf
)

# What each part installs and builds (scripts/build.sh: a preset, or preset:target). The C++ tests
# read their fixtures with nlohmann-json and run on Catch2; the engine alone needs neither.
packages=()
builds=()
add_part() {
  case "$1" in
    serve)
      packages+=(emscripten libeigen3-dev cmake make)
      builds+=(wasm:attention_core)
      ;;
    native | native-debug)
      packages+=(g++ libeigen3-dev catch2 nlohmann-json3-dev cmake make ccache)
      builds+=("$1")
      ;;
    wasm)
      packages+=(emscripten libeigen3-dev catch2 nlohmann-json3-dev cmake make ccache)
      builds+=(wasm)
      ;;
    fuzz)
      packages+=(clang-14 libclang-rt-14-dev libeigen3-dev cmake make ccache)
      builds+=(fuzz)
      ;;
    browser) packages+=(chromium fonts-dejavu-core fonts-noto-core fonts-liberation2) ;;
    lint) packages+=(clang-format) ;;
    test) for part in lint native native-debug wasm fuzz browser; do add_part "$part"; done ;;
    *)
      echo "setup: no part \"$1\"; the parts: serve native native-debug wasm fuzz browser lint test" >&2
      exit 2
      ;;
  esac
}
for part in "${parts[@]}"; do add_part "$part"; done

# Each build once; the whole wasm preset builds the engine too.
kept=()
for build in "${builds[@]}"; do
  if [[ " ${kept[*]} " == *" $build "* ]]; then continue; fi
  if [ "$build" = wasm:attention_core ] && [[ " ${builds[*]} " == *" wasm "* ]]; then continue; fi
  kept+=("$build")
done
builds=("${kept[@]}")

missing=()
declare -A seen=()
for package in "${packages[@]}"; do
  [ -z "${seen[$package]:-}" ] || continue
  seen[$package]=1
  [ -e "${marker[$package]}" ] || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then
    sudo=()
  elif command -v sudo > /dev/null && sudo -n true 2> /dev/null; then
    sudo=(sudo)
  else
    echo "setup: these system packages are missing: ${missing[*]}" >&2
    echo "setup: install them with:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  mkdir -p build/logs
  log=build/logs/apt.log
  if ! {
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
      "${missing[@]}"
  } > "$log" 2>&1; then
    echo "setup: apt-get failed; the end of $log:" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
fi

# npm packages: again only when package-lock.json is newer than the last install.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error > /dev/null
fi

[ ${#builds[@]} -eq 0 ] || bash scripts/build.sh "${builds[@]}"

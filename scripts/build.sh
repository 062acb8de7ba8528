#!/usr/bin/env bash
# Builds the native core, tests and benchmark, the same tests under AddressSanitizer and
# UndefinedBehaviorSanitizer (native-debug), the WebAssembly engine and tests, and the libFuzzer
# target (fuzz, clang 14). Each build folder is configured once; later runs rebuild only what
# changed.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2> /dev/null || echo 2)

for preset in native native-debug wasm fuzz; do
  if [ ! -f "build/$preset/CMakeCache.txt" ]; then
    cmake --preset "$preset" > /dev/null
  fi
  echo "build: $preset"
  cmake --build --preset "$preset" -j "$jobs" | { grep -Ev '^\[ *[0-9]+%\]|^gmake|^make' || true; }
done

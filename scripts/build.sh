#!/usr/bin/env bash
# Builds CMake presets, each into build/<preset>, with its output in build/logs/<preset>.log.
#   bash scripts/build.sh [PRESET[:TARGET]...]
# With no argument, all four: native (the core, tests, benchmarks and tools), native-debug (the
# tests under AddressSanitizer and UndefinedBehaviorSanitizer), wasm (the WebAssembly engine and
# the tests under Node) and fuzz (the libFuzzer target, clang 14). PRESET:TARGET builds one target,
# e.g. wasm:attention_core, the engine alone (npm start). Each folder is configured once and later
# runs rebuild only what changed; a folder first configured for one target has no tests (their
# headers may be missing), and the first build of its whole preset configures them in. A build
# that fails prints its errors and exits with 1; one that warns says how many times.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2> /dev/null || echo 2)
[ $# -gt 0 ] || set -- native native-debug wasm fuzz
mkdir -p build/logs

# Prints what the log says went wrong: its error lines, or else its end.
show_failure() {
  local log=$1
  echo "build: $2 failed; full output in $log" >&2
  local errors='error:|CMake Error|Error [0-9]+|undefined reference'
  if grep -qE "$errors" "$log"; then
    grep -E -A 3 "$errors" "$log" | head -n 40 >&2
  else
    tail -n 40 "$log" >&2
  fi
  exit 1
}

for item in "$@"; do
  preset=${item%%:*}
  target=
  [ "$item" = "$preset" ] || target=${item#*:}
  log=build/logs/$preset.log
  cache=build/$preset/CMakeCache.txt
  if [ -n "$target" ]; then
    echo "build: $preset, $target only (log: $log)"
  else
    echo "build: $preset (log: $log)"
  fi
  : > "$log"
  configure=()
  if [ ! -f "$cache" ]; then
    configure=(cmake --preset "$preset")
    [ -z "$target" ] || configure+=(-DATTN_TESTS=OFF)
  elif [ -z "$target" ] && [ "$preset" != fuzz ] && grep -q '^ATTN_TESTS:BOOL=OFF$' "$cache"; then
    configure=(cmake --preset "$preset")
  fi
  if [ ${#configure[@]} -gt 0 ]; then
    "${configure[@]}" >> "$log" 2>&1 || show_failure "$log" "configuring $preset"
  fi
  command=(cmake --build --preset "$preset" -j "$jobs")
  [ -z "$target" ] || command+=(--target "$target")
  "${command[@]}" >> "$log" 2>&1 || show_failure "$log" "$item"
  warnings=$(grep -c 'warning:' "$log" || true)
  [ "$warnings" -eq 0 ] || echo "build: $item: $warnings warnings, in $log"
done

#!/usr/bin/env bash
# Makes a fresh Debian/Ubuntu machine ready: installs the system packages that are missing, the
# npm packages when the lock file changed, then builds (incrementally) the native and wasm code.
# Quick when everything is already there. Run by `npm start` and `npm test` before anything else.
set -euo pipefail
cd "$(dirname "$0")/.."

# package: a file or command that shows it is installed
declare -A needed=(
  [emscripten]=/usr/bin/em++
  [libeigen3-dev]=/usr/include/eigen3/Eigen/Core
  [catch2]=/usr/include/catch2/catch.hpp
  [nlohmann-json3-dev]=/usr/include/nlohmann/json.hpp
  [cmake]=/usr/bin/cmake
  [g++]=/usr/bin/g++
  [clang-format]=/usr/bin/clang-format
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
missing=()
for package in "${!needed[@]}"; do
  [ -e "${needed[$package]}" ] || missing+=("$package")
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
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" > /dev/null
fi

# npm packages: again only when package-lock.json is newer than the last install.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages"
  npm ci --no-audit --no-fund --loglevel=error
fi

bash scripts/build.sh

#!/usr/bin/env bash
# npm test, after its set-up (the pretest script): lint, the C++ tests, the fuzzer, the JS tests,
# then the browser tests, stopping at the first layer that fails. The fuzzer runs for a fixed
# time on one core, so it runs beside the other layers: lint and the C++ tests keep one process
# busy at a time, and the JS tests (two files at a time) come after them; the browser tests,
# which keep both cores busy, start when all of them have passed.
set -euo pipefail
cd "$(dirname "$0")/.."

npm run --silent test:fuzz &
fuzz=$!
serial=0
{ npm run test:lint && npm run test:cpp && npm run test:js; } || serial=$?
fuzz_status=0
wait "$fuzz" || fuzz_status=$?
if [ "$serial" -ne 0 ] || [ "$fuzz_status" -ne 0 ]; then
  [ "$fuzz_status" -eq 0 ] || echo "test: the fuzzer failed (exit code $fuzz_status)" >&2
  exit 1
fi
npm run test:e2e

#!/usr/bin/env bash
# The browser tests (npm run test:e2e): builds the site once (tests/e2e/build-site.js), then runs
# the test files two at a time, except those that measure time on the page (a main-thread task's
# length, a pause of the page: they read performance.now, Date.now or a trace through
# long-tasks.js), which run afterwards one at a time with nothing else of this suite beside them.
# Both groups run even when the first fails; the exit status is the first failure's.
#   bash scripts/test-e2e.sh [--list | NODE-TEST-OPTION...]
# --list prints the two groups and runs nothing; other arguments go to both `node --test` runs
# (e.g. --test-reporter=spec, --test-name-pattern=axe).
set -euo pipefail
cd "$(dirname "$0")/.."

timed=()
parallel=()
for file in tests/e2e/*.test.js; do
  if grep -qE "long-tasks\.js|performance\.now|Date\.now" "$file"; then
    timed+=("$file")
  else
    parallel+=("$file")
  fi
done

if [ "${1:-}" = --list ]; then
  echo "two at a time: ${parallel[*]}"
  echo "alone: ${timed[*]}"
  exit 0
fi

node tests/e2e/build-site.js
status=0
node --test --test-concurrency=2 "$@" "${parallel[@]}" || status=$?
if [ ${#timed[@]} -gt 0 ]; then
  node --test --test-concurrency=1 "$@" "${timed[@]}" || {
    code=$?
    [ "$status" -ne 0 ] || status=$code
  }
fi
exit "$status"

#!/usr/bin/env bash
# Builds (incrementally) and runs the libFuzzer target of tests/fuzz/ for a bounded time; fails on
# any finding (a crash, a sanitizer report, a hang, an exception other than attn::InvalidArgument).
#   bash scripts/fuzz.sh [seconds]    default: FUZZ_SECONDS, else 600
# `npm test` runs it for 60 s, `npm run fuzz` for 10 minutes (`npm run fuzz -- 3600` for an hour).
# The committed seeds (tests/fuzz/corpus/) start every run; what the fuzzer adds is kept in
# build/fuzz/corpus for the next run, a failing input goes to build/fuzz/findings/, and the whole
# output to build/fuzz/last-run.log.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-${FUZZ_SECONDS:-600}}"
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz: the time must be a whole number of seconds, got \"$seconds\"" >&2
  exit 2
fi

bash scripts/build.sh fuzz

mkdir -p build/fuzz/corpus build/fuzz/findings
log=build/fuzz/last-run.log
echo "fuzz: running for ${seconds} s (output in $log)"
status=0
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  build/fuzz/tests/fuzz/attn_fuzz -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -max_len=4096 -print_final_stats=1 -artifact_prefix=build/fuzz/findings/ \
  build/fuzz/corpus tests/fuzz/corpus > "$log" 2>&1 || status=$?

runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
corpus=$(grep -Eo 'corp: [0-9]+/[0-9]+[a-zA-Z]*' "$log" | tail -1 || true)
if [ "$status" -ne 0 ]; then
  echo "fuzz: FINDING (exit code $status); the end of $log:" >&2
  tail -n 60 "$log" >&2
  echo "fuzz: the input is in build/fuzz/findings/; replay: build/fuzz/tests/fuzz/attn_fuzz <file>" >&2
  exit 1
fi
echo "fuzz: no finding in ${runs:-?} runs (${rate:-?} per second; ${corpus:-corpus})"

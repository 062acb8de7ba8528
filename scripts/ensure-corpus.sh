#!/usr/bin/env bash
# Builds the Brown Corpus splits and their baselines when they are missing (docs/corpus.md):
# npm run train:lm trains on them, and npm test measures the committed model on them.
set -euo pipefail
cd "$(dirname "$0")/.."

for split in train validation test; do
  if [ ! -f "build/corpus/brown-$split.bin" ]; then
    npm run --silent corpus
    break
  fi
done
[ -f build/corpus/baselines.json ] || npm run --silent corpus:baselines > /dev/null

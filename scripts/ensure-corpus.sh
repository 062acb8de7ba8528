#!/usr/bin/env bash
# Builds the corpora the committed models are trained and measured on, when they are missing (npm
# test measures the models on them). The Brown Corpus splits and their baselines (docs/corpus.md),
# for npm run train:lm:
set -euo pipefail
cd "$(dirname "$0")/.."

for split in train validation test; do
  if [ ! -f "build/corpus/brown-$split.bin" ]; then
    npm run --silent corpus
    break
  fi
done
[ -f build/corpus/baselines.json ] || npm run --silent corpus:baselines > /dev/null
bash scripts/ensure-translation-corpus.sh

#!/usr/bin/env bash
# Builds the translation corpus (docs/translation-corpus.md) when a file of it is missing or when
# it is an older build: whole German words where the default corpus has SentencePiece pieces (a
# piece starts with U+2581, bytes e2 96 81), or a train split without the games' sentences (lines
# of the source `game`). npm run train:translation trains on it, and npm test measures the
# committed models on its test split and checks the report against its train split.
set -euo pipefail
cd "$(dirname "$0")/.."

folder=build/corpus/translation
for file in train.bin validation.bin test.bin test.tsv dictionary.tsv german-vocab.txt; do
  if [ ! -f "$folder/$file" ]; then
    exec npm run --silent corpus:translation
  fi
done
if ! LC_ALL=C grep -qF $'\xe2\x96\x81' "$folder/german-vocab.txt"; then
  exec npm run --silent corpus:translation
fi
if ! LC_ALL=C grep -q $'^game\t' "$folder/train.tsv"; then
  exec npm run --silent corpus:translation
fi

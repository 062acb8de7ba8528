#!/usr/bin/env bash
# npm run train:transformer: trains lesson 2's Transformer translator from its committed settings
# (the defaults of tools/train/transformer.cpp and src/include/attn/transformer*.hpp) on the
# translation corpus, writes web/public/models/transformer.bin and build/transformer/summary.json,
# then measures it through the engine on the test split and the everyday set and writes
# web/public/models/transformer.json (docs/transformer.md). Builds what is missing first (set-up,
# the translation corpus). Extra arguments go to `attn_train transformer` (e.g. --steps 20
# --out /tmp/x.bin --summary /tmp/x.json); the report is then left to
# `node tools/translation/report.js --model transformer --weights ... --summary ... --out ...`.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh native serve
bash scripts/ensure-translation-corpus.sh
mkdir -p web/public/models build/transformer
build/native/attn_train transformer "$@" | tee build/transformer/train.log
if [ $# -eq 0 ]; then
  node tools/translation/report.js --model transformer
fi

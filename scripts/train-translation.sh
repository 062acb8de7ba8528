#!/usr/bin/env bash
# npm run train:translation: trains the page's two translation models from their committed
# settings (the defaults of tools/train/translation.cpp and src/include/attn/translator*.hpp),
# writes web/public/models/translation.bin, then measures both models through the engine on the
# test split and writes web/public/models/translation.json (docs/translation.md), and records the
# figures the page draws before the models load (web/src/widgets/translation/recorded.json).
# Builds what is missing first (set-up, the translation corpus). Extra arguments go to
# `attn_train translation` (e.g. --steps 20 --out /tmp/x.bin --summary /tmp/x.json); the report is
# then left to `node tools/translation/report.js --weights ... --summary ... --out ...`.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh native serve
bash scripts/ensure-translation-corpus.sh
mkdir -p web/public/models build/translation
build/native/attn_train translation "$@" | tee build/translation/train.log
if [ $# -eq 0 ]; then
  node tools/translation/report.js
  node tools/translation/record-views.js
fi

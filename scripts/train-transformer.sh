#!/usr/bin/env bash
# npm run train:transformer: trains the Transformer translator from its committed settings (the
# defaults of tools/train/transformer.cpp and src/include/attn/transformer*.hpp) on the
# translation corpus and writes build/transformer/transformer.bin and summary.json
# (docs/transformer.md). Builds what is missing first (set-up, the translation corpus). Extra
# arguments go to `attn_train transformer` (e.g. --steps 20 --out /tmp/x.bin --summary /tmp/x.json).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh native
bash scripts/ensure-translation-corpus.sh
mkdir -p build/transformer
build/native/attn_train transformer "$@" | tee build/transformer/train.log

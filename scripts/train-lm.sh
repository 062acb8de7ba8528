#!/usr/bin/env bash
# npm run train:lm: trains the page's language model from its committed settings (the defaults at
# the top of tools/train/language_model.cpp) and writes web/public/models/brown-lm.bin and brown-lm.json.
# Builds what is missing first (set-up, the corpus splits, their baselines). Extra arguments go to
# `attn_train language-model` (e.g. --steps 20 --out /tmp/x.bin --report /tmp/x.json).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh native
bash scripts/ensure-corpus.sh
mkdir -p web/public/models
build/native/attn_train language-model "$@" | tee build/train-lm.log

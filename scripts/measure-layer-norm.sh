#!/usr/bin/env bash
# npm run measure:layer-norm: the Transformer translator trained four times by one recipe, its
# layer norms pre and post (attn_train transformer --norm), each at the committed peak learning
# rate after the committed warm-up and after none, with the same seeds, sizes and batches; then
# bench/layer-norm.js gathers their training and held-out losses into
# bench/reports/layer-norm.json (docs/transformer.md, "Pre-LN against post-LN"). Builds what is
# missing first (the native tools, the translation corpus). The runs go one after another at
# nice 10, their logs, summaries and weights into build/layer-norm/. Extra arguments go to every
# run (after the recipe's, so they override it: e.g. --steps 40 for a quick look); the report is
# then written beside the logs, not into bench/reports/.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh native
bash scripts/ensure-translation-corpus.sh
out=build/layer-norm
mkdir -p "$out"
rm -f "$out"/*.log "$out"/*.json "$out"/*.bin

# The recipe: the committed one (Adam, peak 1e-3, cosine to a tenth, clipping at 1, dropout 0.1,
# label smoothing 0.1, batches of 64 pairs, seed 1, 2 + 2 blocks of 4 heads) at a third of the
# width (d_model 64, d_mlp 256) for 2,000 steps instead of 12,000, so that a run takes minutes,
# not an hour; the held-out loss on the first 500 validation pairs every 250 steps.
recipe=(--steps 2000 --d-model 64 --heads 4 --d-mlp 256 --encoder-layers 2 --decoder-layers 2
  --lr 1e-3 --log-every 50 --eval-every 250 --eval-pairs 500 --seed 1)
for norm in pre post; do
  for warmup in 1000 0; do
    name="$norm-warmup-$warmup"
    echo "measure-layer-norm: $name" >&2
    # A run that diverges (its weights no longer finite) cannot write its file: its log still
    # holds its curve, and the report says it stopped.
    nice -n 10 build/native/attn_train transformer "${recipe[@]}" --norm "$norm" --warmup "$warmup" \
      --out "$out/$name.bin" --summary "$out/$name.json" "$@" > "$out/$name.log" ||
      echo "measure-layer-norm: $name stopped with an error (its log: $out/$name.log)" >&2
  done
done
report=bench/reports/layer-norm.json
[ $# -eq 0 ] || report="$out/layer-norm.json"
node bench/layer-norm.js "$out" "$report" "${recipe[*]}${*:+ $*}"

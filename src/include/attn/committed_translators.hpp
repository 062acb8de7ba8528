// The sizes and training settings of the page's translation models: lesson 1's two recurrent
// translators (docs/translation.md, "Training it") and lesson 2's Transformer
// (docs/transformer.md, "Training it"). `attn_train translation` and `attn_train transformer`
// train with them, and the page times one training step of the attention translator and of the
// Transformer with them (wasm/translator_timing.cpp). The vocabularies' sizes and the weights'
// seed are the caller's: they come with the corpus and the word vectors.
#pragma once

#include "attn/transformer_training.hpp"
#include "attn/transformer_translator.hpp"
#include "attn/translator.hpp"
#include "attn/translator_training.hpp"

namespace attn {

// The recurrent translators' widths: d_y 64, H_e 128 a direction, H_d 256, d_a 128.
TranslatorConfig committed_translator_sizes();

// The Transformer's widths: d_model 192, 4 heads, 2 encoder and 2 decoder blocks, d_mlp 768 (its
// 8-bit file stays under 4 MB after gzip).
TransformerTranslatorConfig committed_transformer_sizes();

// 15,000 steps, a peak rate of 2e-3 after 200 warm-up steps, on the shared recipe: batches of 64
// pairs, a cosine decay to a tenth of the peak, gradients clipped at norm 1, seed 1, dropout 0.1.
TranslatorTrainingOptions committed_translator_training();

// 12,000 steps, a peak rate of 1e-3 after 1,000 warm-up steps and label smoothing 0.1 (Vaswani et
// al.'s recipe at this scale), on the same shared recipe.
TransformerTrainingOptions committed_transformer_training();

}  // namespace attn

#include "attn/committed_translators.hpp"

namespace attn {
namespace {

// The recipe both translation models share, for a model's own number of steps, peak learning rate
// and warm-up.
template <typename Options>
Options translation_recipe(long steps, double peak_learning_rate, long warmup) {
  Options t;
  t.steps = steps;
  t.batch = 64;
  t.learning_rate = peak_learning_rate;
  t.warmup = warmup;
  t.final_lr_fraction = 0.1;
  t.clip = 1.0;
  t.seed = 1;
  t.dropout = 0.1;
  return t;
}

}  // namespace

TranslatorConfig committed_translator_sizes() {
  TranslatorConfig c;
  c.target_width = 64;
  c.encoder_state = 128;
  c.decoder_state = 256;
  c.attention = 128;
  return c;
}

TransformerTranslatorConfig committed_transformer_sizes() {
  TransformerTranslatorConfig c;
  c.d_model = 192;
  c.heads = 4;
  c.encoder_layers = 2;
  c.decoder_layers = 2;
  c.d_mlp = 768;
  return c;
}

TranslatorTrainingOptions committed_translator_training() {
  return translation_recipe<TranslatorTrainingOptions>(15000, 2e-3, 200);
}

TransformerTrainingOptions committed_transformer_training() {
  auto t = translation_recipe<TransformerTrainingOptions>(12000, 1e-3, 1000);
  t.label_smoothing = 0.1;
  return t;
}

}  // namespace attn

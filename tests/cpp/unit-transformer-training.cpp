#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "attn/transformer_training.hpp"
#include "gradient_check.hpp"
#include "translation_fixtures.hpp"

namespace {

attn::TransformerTranslatorConfig toy_config() {
  // source_words, source_width, target_words, d_model, heads, encoder_layers, decoder_layers,
  // d_mlp, seed
  return {6, 4, 10, 16, 2, 1, 1, 32, 1};
}

attn::MatrixT<float> toy_vectors() { return attn::unit_normal(6, 4, 11).cast<float>(); }

// The toy runs' schedule: `steps` steps of `batch` pairs at a peak learning rate of 1e-2 reached
// after `warmup` steps.
attn::TransformerTrainingOptions toy_schedule(long steps, int batch, long warmup) {
  attn::TransformerTrainingOptions options;
  options.steps = steps;
  options.batch = batch;
  options.learning_rate = 1e-2;
  options.warmup = warmup;
  return options;
}

}  // namespace

TEST_CASE("transformer training: two runs of a few steps give the same bytes",
          "[transformer-training]") {
  const auto pairs = test::toy_translation_pairs();
  attn::TransformerTrainingOptions options = toy_schedule(6, 7, 2);
  options.dropout = 0.1;
  options.label_smoothing = 0.1;
  attn::TransformerTraining a(toy_config(), toy_vectors(), pairs, options);
  attn::TransformerTraining b(toy_config(), toy_vectors(), pairs, options);
  for (int s = 0; s < 6; ++s) {
    const auto x = a.step(), y = b.step();
    CHECK(std::memcmp(&x.loss, &y.loss, sizeof x.loss) == 0);
    CHECK(std::memcmp(&x.gradient_norm, &y.gradient_norm, sizeof x.gradient_norm) == 0);
  }
  const auto pa = a.parameters(), pb = b.parameters();
  REQUIRE(pa.size() == pb.size());
  for (size_t i = 0; i < pa.size(); ++i) {
    INFO(pa[i]->name);
    REQUIRE(pa[i]->value.size() == pb[i]->value.size());
    CHECK(std::memcmp(pa[i]->value.data(), pb[i]->value.data(),
                      sizeof(float) * static_cast<size_t>(pa[i]->value.size())) == 0);
  }
}

TEST_CASE("transformer training: a toy reversal is learnt", "[transformer-training]") {
  const auto pairs = test::toy_translation_pairs();
  const attn::TransformerTrainingOptions options = toy_schedule(300, 10, 20);
  attn::TransformerTraining training(toy_config(), toy_vectors(), pairs, options);
  const double before = attn::held_out_loss(training.model(), pairs, 7).loss;
  for (long s = 0; s < options.steps; ++s) training.step();
  const double after = attn::held_out_loss(training.model(), pairs, 7).loss;
  CHECK(after < 0.2 * before);
  int right = 0;
  for (const auto& p : pairs)
    right += training.model().translate(p.english, 8).translation.words == p.german;
  CHECK(right >= 20);
}

TEST_CASE("transformer training: options are checked", "[transformer-training]") {
  attn::TransformerTrainingOptions options;
  options.label_smoothing = 1;
  CHECK_THROWS_WITH(attn::check_transformer_training_options(options),
                    Catch::Contains("label_smoothing"));
  options = {};
  options.batch = 0;
  CHECK_THROWS_AS(attn::check_transformer_training_options(options), attn::InvalidArgument);
  CHECK_THROWS_AS(
      attn::held_out_loss(attn::TransformerTranslator<float>(toy_config(), toy_vectors()),
                          test::toy_translation_pairs(), 0),
      attn::InvalidArgument);
}

// The committed sizes and settings of the page's translation models: the sizes give the shipped
// files' parameter counts (web/public/models/translation.json, transformer.json), and the
// training options are those docs/translation.md and docs/transformer.md state, and pass the
// training checks.
#include <catch2/catch.hpp>

#include "attn/committed_translators.hpp"

namespace {

// The page's vocabularies: the word vectors' 20,058 words and 8,000 German pieces.
constexpr int kEnglishWords = 20058;
constexpr int kGermanPieces = 8000;

template <typename Shapes>
long long count_of(const Shapes& shapes) {
  long long count = 0;
  for (const auto& [rows, cols] : shapes) count += static_cast<long long>(rows) * cols;
  return count;
}

}  // namespace

TEST_CASE("the committed sizes give the shipped models' parameter counts",
          "[committed-translators]") {
  attn::TranslatorConfig recurrent = attn::committed_translator_sizes();
  recurrent.source_words = kEnglishWords;
  recurrent.target_words = kGermanPieces;
  recurrent.bridge = attn::Bridge::attention;
  CHECK(count_of(attn::translator_parameter_shapes(recurrent)) == 1309156);
  recurrent.bridge = attn::Bridge::fixed_vector;
  CHECK(count_of(attn::translator_parameter_shapes(recurrent)) == 1243364);

  attn::TransformerTranslatorConfig transformer = attn::committed_transformer_sizes();
  transformer.source_words = kEnglishWords;
  transformer.target_words = kGermanPieces;
  CHECK(count_of(attn::transformer_translator_parameter_shapes(transformer)) == 3640932);
}

TEST_CASE("the committed training settings are the documented recipe", "[committed-translators]") {
  const attn::TranslatorTrainingOptions r = attn::committed_translator_training();
  CHECK(r.steps == 15000);
  CHECK(r.learning_rate == 2e-3);
  CHECK(r.warmup == 200);
  const attn::TransformerTrainingOptions t = attn::committed_transformer_training();
  CHECK(t.steps == 12000);
  CHECK(t.learning_rate == 1e-3);
  CHECK(t.warmup == 1000);
  CHECK(t.label_smoothing == 0.1);
  for (const attn::TranslatorTrainingOptions* o :
       {&r, static_cast<const attn::TranslatorTrainingOptions*>(&t)}) {
    CHECK(o->batch == 64);
    CHECK(o->final_lr_fraction == 0.1);
    CHECK(o->clip == 1.0);
    CHECK(o->seed == 1);
    CHECK(o->dropout == 0.1);
  }
  CHECK_NOTHROW(attn::check_translator_training_options(r));
  CHECK_NOTHROW(attn::check_transformer_training_options(t));
}

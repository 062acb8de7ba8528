#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <vector>

#include "attn/translator_training.hpp"
#include "gradient_check.hpp"
#include "translation_fixtures.hpp"

namespace {

attn::TranslatorConfig toy_config() {
  // bridge, source_words, source_width, target_words, target_width, encoder_state, decoder_state,
  // attention, seed
  return {attn::Bridge::attention, 6, 4, 10, 4, 8, 8, 8, 1};
}

}  // namespace

TEST_CASE("translation batches: each epoch hands out every pair once, similar lengths together",
          "[translator-training]") {
  const auto pairs = test::toy_translation_pairs();
  attn::TranslationBatches batches(pairs, 8, 1);
  CHECK(batches.batches_per_epoch() == 4);  // 8 + 8 + 8 + 6
  std::multiset<std::vector<int>> seen;
  std::vector<std::size_t> widths;
  for (int i = 0; i < 4; ++i) {
    const attn::TranslationBatch& b = batches.next();
    for (const auto& s : b.sources) seen.insert(s);
    std::vector<std::size_t> lengths;
    for (const auto& s : b.sources) lengths.push_back(s.size());
    CHECK(std::is_sorted(lengths.begin(), lengths.end()));
    widths.push_back(b.sources.size());
  }
  CHECK(batches.epochs_started() == 1);
  std::multiset<std::vector<int>> all;
  for (const auto& p : pairs) all.insert(p.english);
  CHECK(seen == all);
  std::sort(widths.begin(), widths.end());
  CHECK(widths == std::vector<std::size_t>{6, 8, 8, 8});
  batches.next();
  CHECK(batches.epochs_started() == 2);
}

TEST_CASE("translation batches: the same seed gives the same order", "[translator-training]") {
  const auto pairs = test::toy_translation_pairs();
  attn::TranslationBatches a(pairs, 5, 9), b(pairs, 5, 9);
  for (int i = 0; i < 15; ++i) CHECK(a.next().sources == b.next().sources);
  CHECK_THROWS_WITH(attn::TranslationBatches({}, 5, 1), Catch::Contains("no pairs"));
  CHECK_THROWS_WITH(attn::TranslationBatches(pairs, 0, 1), Catch::Contains("batch must be"));
}

TEST_CASE("translator training: a toy reversal is learnt, the same way every run",
          "[translator-training]") {
  const auto pairs = test::toy_translation_pairs();
  attn::TranslatorTrainingOptions options;
  options.steps = 800;
  options.batch = 10;
  options.learning_rate = 2e-2;
  options.warmup = 10;
  auto vectors = [] { return attn::unit_normal(6, 4, 11).cast<float>().eval(); };
  attn::TranslatorTraining a(toy_config(), vectors(), pairs, options);
  attn::TranslatorTraining b(toy_config(), vectors(), pairs, options);
  const double before = attn::held_out_loss(a.model(), pairs, 7).loss;
  auto right = [&](const attn::Translator<float>& model) {
    int count = 0;
    for (const auto& p : pairs) count += model.translate(p.english, 8).words == p.german;
    return count;
  };
  const int right_before = right(a.model());
  attn::TranslatorTraining::Step last{};
  for (long s = 0; s < options.steps; ++s) {
    last = a.step();
    const auto other = b.step();
    REQUIRE(last.loss == other.loss);
  }
  const attn::HeldOutLoss after = attn::held_out_loss(a.model(), pairs, 7);
  CHECK(after.tokens == 30 + static_cast<long>([&] {
                          long n = 0;
                          for (const auto& p : pairs) n += static_cast<long>(p.german.size());
                          return n;
                        }()));
  CHECK(before > 2.0);
  CHECK(after.loss < 0.2);
  CHECK(last.learning_rate == Approx(2e-3));  // the end of the cosine: a tenth of the peak
  // Greedy decoding now writes most training sentences' translations word for word.
  CHECK(right_before <= 1);
  CHECK(right(a.model()) >= 24);
}

TEST_CASE("translator training: with dropout, the same seed gives the same steps",
          "[translator-training]") {
  // The masks come from the options' seed: two runs agree bit for bit, and differ from a run
  // without dropout, whose batches are the same.
  const auto pairs = test::toy_translation_pairs();
  attn::TranslatorTrainingOptions options;
  options.steps = 20;
  options.batch = 10;
  options.dropout = 0.3;
  const auto vectors = attn::unit_normal(6, 4, 11).cast<float>().eval();
  attn::TranslatorTraining a(toy_config(), vectors, pairs, options);
  attn::TranslatorTraining b(toy_config(), vectors, pairs, options);
  options.dropout = 0;
  attn::TranslatorTraining plain(toy_config(), vectors, pairs, options);
  int differ = 0;
  for (int s = 0; s < 20; ++s) {
    const auto step = a.step();
    REQUIRE(step.loss == b.step().loss);
    const auto without = plain.step();
    CHECK(step.tokens == without.tokens);
    differ += step.loss != without.loss ? 1 : 0;
  }
  CHECK(differ == 20);
}

TEST_CASE("translator training: options out of range are named", "[translator-training]") {
  attn::TranslatorTrainingOptions o;
  o.batch = 0;
  CHECK_THROWS_WITH(attn::check_translator_training_options(o), Catch::Contains("batch"));
  o = {};
  o.final_lr_fraction = 0;
  CHECK_THROWS_WITH(attn::check_translator_training_options(o), Catch::Contains("fraction"));
  o = {};
  o.clip = -1;
  CHECK_THROWS_WITH(attn::check_translator_training_options(o), Catch::Contains("clip"));
  for (const double rate : {-0.1, 1.0}) {
    o = {};
    o.dropout = rate;
    CHECK_THROWS_WITH(attn::check_translator_training_options(o), Catch::Contains("dropout"));
  }
}

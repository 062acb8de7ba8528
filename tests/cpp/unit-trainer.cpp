#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>
#include <vector>

#include "attn/trainer.hpp"

using attn::Bridge;

namespace {

// Steps counted, never timed. Both models below are trained for the same 400 steps of the
// default task (lengths 2 to 12, batches of 32), which take under a second natively.
constexpr int kSteps = 400;

std::vector<int> lengths_2_to_12() {
  std::vector<int> lengths(11);
  std::iota(lengths.begin(), lengths.end(), 2);
  return lengths;
}

attn::TrainingOptions defaults(Bridge model) {
  attn::TrainingOptions o;
  o.model = model;
  return o;
}

// Trained once, shared by the tests that read a trained model.
const attn::Trainer& trained(Bridge model) {
  static attn::Trainer attention(defaults(Bridge::attention));
  static attn::Trainer fixed(defaults(Bridge::fixed_vector));
  attn::Trainer& trainer = model == Bridge::attention ? attention : fixed;
  if (trainer.steps() == 0) trainer.step(kSteps);
  return trainer;
}

double mean(const std::vector<float>& values, size_t first) {
  double total = 0;
  for (size_t i = first; i < values.size(); ++i) total += values[i];
  return total / static_cast<double>(values.size() - first);
}

}  // namespace

TEST_CASE("a short training run brings the loss from log V to below 0.15", "[trainer]") {
  // Seed 1, 150 steps: the mean of the last 10 losses is 0.044 (0.012 to 0.054 over seeds 1 to 8);
  // the bound leaves a margin of 3.
  attn::Trainer trainer(defaults(Bridge::attention));
  const std::vector<float> losses = trainer.step(150);
  REQUIRE(losses.size() == 150);
  CHECK(trainer.steps() == 150);
  // Before any training the model guesses: about log 8 = 2.08 nats per symbol.
  CHECK(std::abs(losses[0] - std::log(8.0)) < 0.3);
  CHECK(mean(losses, 140) < 0.15);
}

TEST_CASE("the attention model reverses short sequences within 200 steps", "[trainer]") {
  // Lengths 2 to 6 reach 95% whole-sequence accuracy after 100 to 125 steps for seeds 1 to 5.
  attn::TrainingOptions o = defaults(Bridge::attention);
  o.max_length = 6;
  attn::Trainer trainer(o);
  trainer.step(200);
  for (const attn::LengthAccuracy& a : trainer.evaluate({2, 3, 4, 5, 6}, 200)) {
    INFO("length " << a.length);
    CHECK(a.sequence_accuracy >= 0.95);
    CHECK(a.symbol_accuracy >= a.sequence_accuracy);
  }
}

TEST_CASE("after the same training, attention reverses long inputs and one vector does not",
          "[trainer]") {
  const auto attention = trained(Bridge::attention).evaluate(lengths_2_to_12(), 200);
  const auto fixed = trained(Bridge::fixed_vector).evaluate(lengths_2_to_12(), 200);
  // Attention: nearly every sequence up to length 12 (0.97 at length 12 with these settings).
  for (const attn::LengthAccuracy& a : attention) {
    INFO("attention, length " << a.length);
    CHECK(a.sequence_accuracy >= 0.85);
  }
  // One vector: the share of right symbols falls as the input grows (0.54 at length 2, 0.35 at 6,
  // 0.28 at 12 with these settings), and long sequences are never right whole.
  CHECK(fixed[0].symbol_accuracy > fixed[4].symbol_accuracy + 0.1);
  CHECK(fixed[4].symbol_accuracy > fixed[10].symbol_accuracy);
  CHECK(fixed[10].sequence_accuracy < 0.1);
  CHECK(fixed[10].symbol_accuracy < attention[10].symbol_accuracy - 0.5);
}

TEST_CASE("the attention map of a trained model is the anti-diagonal", "[trainer]") {
  // Output step t copies input position L - 1 - t, and that is where it looks.
  for (const int length : {3, 8, 12}) {
    const attn::AttentionMap map = trained(Bridge::attention).attention_map(length);
    INFO("length " << length);
    REQUIRE(map.weights.rows() == length);
    REQUIRE(map.weights.cols() == length);
    REQUIRE(map.input.size() == static_cast<size_t>(length));
    for (int t = 0; t < length; ++t) {
      Eigen::Index column = 0;
      const float top = map.weights.row(t).maxCoeff(&column);
      CHECK(column == length - 1 - t);
      CHECK(top > 0.5f);
      CHECK(map.weights.row(t).sum() == Approx(1.0f).margin(1e-5));
      CHECK(map.target[t] == map.input[length - 1 - t]);
    }
    CHECK(map.output == map.target);
  }
  CHECK_THROWS_WITH(trained(Bridge::fixed_vector).attention_map(5),
                    Catch::Contains("the fixed-vector model has no cross-attention"));
}

TEST_CASE("training is deterministic for a seed", "[trainer]") {
  attn::TrainingOptions o = defaults(Bridge::attention);
  o.scoring = attn::Scoring::additive;
  attn::Trainer a(o), b(o);
  // In two calls or one: the same losses, bit for bit.
  std::vector<float> first = a.step(5);
  const std::vector<float> rest = a.step(5);
  first.insert(first.end(), rest.begin(), rest.end());
  CHECK(first == b.step(10));
  o.seed = 2;
  attn::Trainer c(o);
  CHECK(c.step(10) != first);
}

TEST_CASE("evaluation uses the same held-out sequences every call", "[trainer]") {
  const attn::Trainer& trainer = trained(Bridge::fixed_vector);
  const auto all = trainer.evaluate({2, 5, 9}, 300);
  const auto again = trainer.evaluate({2, 5, 9}, 300);
  const auto one = trainer.evaluate({5}, 300);
  REQUIRE(all.size() == 3);
  for (size_t i = 0; i < all.size(); ++i) {
    CHECK(all[i].length == again[i].length);
    CHECK(all[i].sequence_accuracy == again[i].sequence_accuracy);
    CHECK(all[i].symbol_accuracy == again[i].symbol_accuracy);
  }
  CHECK(one[0].symbol_accuracy == all[1].symbol_accuracy);
  // Counts over 300 sequences of 5 symbols: multiples of 1/300 and 1/1500.
  CHECK(std::abs(all[1].sequence_accuracy * 300 - std::round(all[1].sequence_accuracy * 300)) <
        1e-9);
  CHECK(std::abs(all[1].symbol_accuracy * 1500 - std::round(all[1].symbol_accuracy * 1500)) < 1e-9);
}

TEST_CASE("training options out of range are refused by name", "[trainer]") {
  const auto refuses = [](void (*change)(attn::TrainingOptions&), const char* message) {
    attn::TrainingOptions o;
    change(o);
    INFO(message);
    CHECK_THROWS_WITH(attn::Trainer(o), Catch::Contains(message));
  };
  refuses([](attn::TrainingOptions& o) { o.d_model = 1; }, "d_model must be from 2 to 256, got 1");
  refuses([](attn::TrainingOptions& o) { o.d_k = 1025; }, "d_k must be from 1 to 1024");
  refuses([](attn::TrainingOptions& o) { o.vocab = 1; }, "vocab must be from 2 to 64");
  refuses([](attn::TrainingOptions& o) { o.min_length = 0; }, "min_length must be from 1 to 32");
  refuses([](attn::TrainingOptions& o) { o.max_length = 33; }, "max_length must be from 2 to 32");
  refuses([](attn::TrainingOptions& o) { o.max_length = 1; }, "max_length must be from 2 to 32");
  refuses([](attn::TrainingOptions& o) { o.batch = 513; }, "batch must be from 1 to 512");
  refuses([](attn::TrainingOptions& o) { o.learning_rate = 0; }, "learning_rate must be > 0");
  refuses([](attn::TrainingOptions& o) { o.learning_rate = std::nan(""); },
          "learning_rate must be > 0");
  refuses([](attn::TrainingOptions& o) { o.clip = -1; }, "clip must be from 0 to 1000");

  attn::Trainer trainer(defaults(Bridge::attention));
  CHECK_THROWS_WITH(trainer.step(0), Catch::Contains("n must be from 1 to 100000"));
  CHECK_THROWS_WITH(trainer.evaluate({}, 10), Catch::Contains("lengths must list 1 to 32"));
  CHECK_THROWS_WITH(trainer.evaluate({4, 33}, 10), Catch::Contains("length must be from 1 to 32"));
  CHECK_THROWS_WITH(trainer.evaluate({4}, 0), Catch::Contains("samples must be from 1 to 10000"));
  CHECK_THROWS_WITH(trainer.attention_map(0), Catch::Contains("length must be from 1 to 32"));
  CHECK(trainer.steps() == 0);
}

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <set>
#include <vector>

#include "attn/adam.hpp"
#include "attn/language_model.hpp"
#include "attn/lm_training.hpp"
#include "attn/loss.hpp"
#include "helpers.hpp"

namespace {

using Rows = std::vector<std::vector<int>>;

constexpr int kIgnored = attn::kIgnoredTarget;

// A tiny model: 30 words and the unknown id 30, vectors of width 8, d_model 8, 2 blocks of 2
// heads, MLP width 16, context 8.
constexpr int kWords = 30;
constexpr int kContext = 8;

attn::LanguageModelConfig tiny_config() {
  // vocab, d_embed, d_model, layers, heads, d_mlp, context, seed, position_scale
  return {kWords + 1, 8, 8, 2, 2, 16, kContext, 5, 0.2f};
}

attn::MatrixT<float> tiny_word_vectors() { return test::random(kWords + 1, 8, 51); }

// Options that fit the tiny model: batches of 4, runs of 2 to 8 words.
attn::LanguageModelTrainingOptions tiny_options() {
  attn::LanguageModelTrainingOptions o;
  o.steps = 60;
  o.batch = 4;
  o.learning_rate = 1e-2;
  o.warmup = 5;
  o.min_run = 2;
  o.max_run = kContext;
  o.repeat_fraction = 0.25;
  o.seed = 3;
  return o;
}

// first, first + 1, ..., first + count - 1.
std::vector<int> ids_from(int first, int count) {
  std::vector<int> ids(static_cast<size_t>(count));
  std::iota(ids.begin(), ids.end(), first);
  return ids;
}

// A repeated row's context + 1 tokens: the inputs, then the last target (never ignored).
std::vector<int> whole_row(const std::vector<int>& in, const std::vector<int>& out) {
  std::vector<int> w = in;
  w.push_back(out.back());
  return w;
}

// The period of a repeated row: the first position after 0 holding the same id as position 0.
int period_of(const std::vector<int>& w) {
  for (size_t i = 1; i < w.size(); ++i) {
    if (w[i] == w[0]) return static_cast<int>(i);
  }
  return 0;
}

// Checks one repeated row against its run length and returns that length: the inputs repeat with
// period L in [min_run, max_run], the first L - 1 targets are ignored and the rest are the next
// input.
int check_repeated_row(const std::vector<int>& in, const std::vector<int>& out,
                       const attn::LanguageModelTrainingOptions& o) {
  REQUIRE(in.size() == static_cast<size_t>(kContext));
  REQUIRE(out.size() == static_cast<size_t>(kContext));
  const std::vector<int> w = whole_row(in, out);
  const int L = period_of(w);
  CHECK(L >= o.min_run);
  CHECK(L <= o.max_run);
  if (L < 2) return L;
  for (size_t i = 0; i < w.size(); ++i) CHECK(w[i] == w[i % static_cast<size_t>(L)]);
  for (int i = 0; i < kContext; ++i) {
    if (i < L - 1) {
      CHECK(out[static_cast<size_t>(i)] == kIgnored);
    } else {
      CHECK(out[static_cast<size_t>(i)] == w[static_cast<size_t>(i) + 1]);
    }
  }
  return L;
}

double mean(const std::vector<float>& values, size_t first, size_t count) {
  double total = 0;
  for (size_t i = first; i < first + count; ++i) total += values[i];
  return total / static_cast<double>(count);
}

}  // namespace

TEST_CASE("lm training: the options' bounds are refused and values within them accepted",
          "[lm-training]") {
  const attn::LanguageModelTrainingOptions good = tiny_options();
  REQUIRE_NOTHROW(attn::check_training_options(good, kContext, kWords));

  auto refused = [&](auto change) {
    attn::LanguageModelTrainingOptions o = good;
    change(o);
    return o;
  };
  using O = attn::LanguageModelTrainingOptions;
  // The schedule's own bounds are training_loop's (unit-training-loop.cpp); one of them here
  // shows that the options' check applies them.
  const std::vector<O> bad = {
      refused([](O& o) { o.steps = 0; }),
      refused([](O& o) { o.learning_rate = std::numeric_limits<double>::quiet_NaN(); }),
      refused([](O& o) { o.batch = 0; }),
      refused([](O& o) { o.batch = 4097; }),
      refused([](O& o) { o.repeat_fraction = -0.1; }),
      refused([](O& o) { o.repeat_fraction = 1.1; }),
      refused([](O& o) { o.min_run = 1; }),
      refused([](O& o) {
        o.min_run = 6;
        o.max_run = 5;
      }),
  };
  for (const O& o : bad) {
    REQUIRE_THROWS_AS(attn::check_training_options(o, kContext, kWords), attn::InvalidArgument);
  }
  // max_run is bounded by the context here (8 < 30 words) ...
  REQUIRE_THROWS_AS(attn::check_training_options(refused([](O& o) { o.max_run = kContext + 1; }),
                                                 kContext, kWords),
                    attn::InvalidArgument);
  // ... and by the words when there are fewer of them than the context.
  REQUIRE_NOTHROW(attn::check_training_options(refused([](O& o) { o.max_run = 5; }), kContext, 5));
  REQUIRE_THROWS_AS(attn::check_training_options(refused([](O& o) { o.max_run = 6; }), kContext, 5),
                    attn::InvalidArgument);

  // The limits themselves are accepted.
  attn::LanguageModelTrainingOptions edge = good;
  edge.steps = 1000000;
  edge.batch = 4096;
  edge.warmup = 0;
  edge.final_lr_fraction = 1;
  edge.clip = 0;
  edge.repeat_fraction = 1;
  edge.min_run = edge.max_run = kContext;
  CHECK_NOTHROW(attn::check_training_options(edge, kContext, kWords));
  edge.steps = 1;
  edge.batch = 1;
  edge.repeat_fraction = 0;
  edge.min_run = edge.max_run = 2;
  CHECK_NOTHROW(attn::check_training_options(edge, kContext, kWords));

  // The defaults need runs of up to 32 words: accepted for a context of 64 and 1000 words, not
  // for the tiny model's context of 8.
  const attn::LanguageModelTrainingOptions defaults;
  CHECK_NOTHROW(attn::check_training_options(defaults, 64, 1000));
  CHECK_THROWS_AS(attn::check_training_options(defaults, kContext, kWords), attn::InvalidArgument);
}

TEST_CASE("lm training: repeated rows per batch round the fraction of the batch", "[lm-training]") {
  attn::LanguageModelTrainingOptions o;
  o.batch = 32;
  o.repeat_fraction = 0.15;  // 4.8
  CHECK(attn::repeated_rows_per_batch(o) == 5);
  o.batch = 4;  // 0.6
  CHECK(attn::repeated_rows_per_batch(o) == 1);
  o.repeat_fraction = 0.1;  // 0.4
  CHECK(attn::repeated_rows_per_batch(o) == 0);
  o.repeat_fraction = 0.5;  // 2
  CHECK(attn::repeated_rows_per_batch(o) == 2);
  o.batch = 5;  // 2.5, a half rounds up
  CHECK(attn::repeated_rows_per_batch(o) == 3);
  o.repeat_fraction = 0;
  CHECK(attn::repeated_rows_per_batch(o) == 0);
  o.repeat_fraction = 1;
  CHECK(attn::repeated_rows_per_batch(o) == 5);
}

TEST_CASE("lm training: window rows are context + 1 consecutive ids of one long enough sample",
          "[lm-training]") {
  // Two samples of distinct ids, so that a window's position tells where it starts: 0..14 and
  // 15..29. A third of exactly the context, all unknown ids, has no window.
  const Rows samples = {ids_from(0, 15), ids_from(15, 15), std::vector<int>(kContext, kWords)};
  attn::LanguageModelTrainingOptions o = tiny_options();
  o.repeat_fraction = 0;
  attn::LanguageModelBatches batches(samples, kContext, kWords, o);
  Rows inputs, targets;
  std::set<int> starts;
  std::vector<int> count(kWords + 1, 0);
  for (int draw = 0; draw < 200; ++draw) {
    batches.next(inputs, targets);
    REQUIRE(inputs.size() == 4);
    REQUIRE(targets.size() == 4);
    for (size_t b = 0; b < inputs.size(); ++b) {
      REQUIRE(inputs[b].size() == static_cast<size_t>(kContext));
      REQUIRE(targets[b].size() == static_cast<size_t>(kContext));
      const int start = inputs[b][0];
      // Starts 0..6 of the first sample (15 - 8 = 7 starts), 15..21 of the second.
      CHECK(((start >= 0 && start <= 6) || (start >= 15 && start <= 21)));
      for (int i = 0; i < kContext; ++i) {
        CHECK(inputs[b][static_cast<size_t>(i)] == start + i);
        CHECK(targets[b][static_cast<size_t>(i)] == start + i + 1);
      }
      starts.insert(start);
      ++count[static_cast<size_t>(start)];
    }
  }
  // Every one of the 14 starts is drawn, about 800 / 14 = 57 times each.
  CHECK(starts.size() == 14);
  for (const int start : starts) {
    CHECK(count[static_cast<size_t>(start)] > 25);
    CHECK(count[static_cast<size_t>(start)] < 100);
  }
}

TEST_CASE("lm training: the last rows of a batch are runs of distinct words repeated",
          "[lm-training]") {
  const Rows samples = {ids_from(0, 20)};
  attn::LanguageModelTrainingOptions o = tiny_options();
  o.repeat_fraction = 0.5;  // rows 2 and 3 of 4
  o.min_run = 3;
  o.max_run = 6;
  attn::LanguageModelBatches batches(samples, kContext, kWords, o);
  Rows inputs, targets;
  std::set<int> lengths;
  for (int draw = 0; draw < 100; ++draw) {
    batches.next(inputs, targets);
    REQUIRE(inputs.size() == 4);
    // The first two rows are windows of 0..19: the targets are the inputs shifted by one.
    for (size_t b = 0; b < 2; ++b) {
      const int start = inputs[b][0];
      CHECK(start >= 0);
      CHECK(start <= 20 - kContext - 1);
      for (int i = 0; i < kContext; ++i) {
        CHECK(inputs[b][static_cast<size_t>(i)] == start + i);
        CHECK(targets[b][static_cast<size_t>(i)] == start + i + 1);
      }
    }
    for (size_t b = 2; b < 4; ++b) {
      const int L = check_repeated_row(inputs[b], targets[b], o);
      lengths.insert(L);
      // The run: L distinct ids from [0, words), never the unknown id.
      std::set<int> run(inputs[b].begin(), inputs[b].begin() + L);
      CHECK(run.size() == static_cast<size_t>(L));
      CHECK(*run.begin() >= 0);
      CHECK(*run.rbegin() < kWords);
    }
  }
  // Every length from min_run to max_run is drawn.
  CHECK(lengths == std::set<int>{3, 4, 5, 6});
}

TEST_CASE("lm training: a run as long as the context leaves only the last target counted",
          "[lm-training]") {
  const Rows samples = {ids_from(0, 20)};
  attn::LanguageModelTrainingOptions o = tiny_options();
  o.repeat_fraction = 1;
  o.min_run = o.max_run = kContext;
  attn::LanguageModelBatches batches(samples, kContext, kWords, o);
  Rows inputs, targets;
  batches.next(inputs, targets);
  REQUIRE(inputs.size() == 4);
  for (size_t b = 0; b < 4; ++b) {
    CHECK(check_repeated_row(inputs[b], targets[b], o) == kContext);
    CHECK(targets[b].back() == inputs[b].front());
  }
}

TEST_CASE("lm training: with repeat_text the repeated run is the start of a window of text",
          "[lm-training]") {
  // The text 10..29: a run from it is consecutive ids starting at 10..21.
  const Rows samples = {ids_from(10, 20)};
  attn::LanguageModelTrainingOptions o = tiny_options();
  o.repeat_fraction = 0.5;
  o.min_run = 2;
  o.max_run = 7;
  o.repeat_text = true;
  attn::LanguageModelBatches batches(samples, kContext, kWords, o);
  Rows inputs, targets;
  std::set<int> lengths;
  for (int draw = 0; draw < 100; ++draw) {
    batches.next(inputs, targets);
    REQUIRE(inputs.size() == 4);
    for (size_t b = 2; b < 4; ++b) {
      const int L = check_repeated_row(inputs[b], targets[b], o);
      lengths.insert(L);
      const int first = inputs[b][0];
      CHECK(first >= 10);
      CHECK(first <= 29 - kContext);
      for (int i = 0; i < L; ++i) CHECK(inputs[b][static_cast<size_t>(i)] == first + i);
    }
  }
  CHECK(lengths == std::set<int>{2, 3, 4, 5, 6, 7});
}

TEST_CASE("lm training: the same seed gives the same batches, another seed others",
          "[lm-training]") {
  const Rows samples = {ids_from(0, 20), ids_from(5, 25), {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5}};
  const attn::LanguageModelTrainingOptions o = tiny_options();
  attn::LanguageModelTrainingOptions other = o;
  other.seed = o.seed + 1;
  attn::LanguageModelBatches a(samples, kContext, kWords, o), b(samples, kContext, kWords, o),
      c(samples, kContext, kWords, other);
  Rows in_a, out_a, in_b, out_b, in_c, out_c;
  int differing = 0;
  for (int draw = 0; draw < 5; ++draw) {
    a.next(in_a, out_a);
    b.next(in_b, out_b);
    c.next(in_c, out_c);
    CHECK(in_a == in_b);
    CHECK(out_a == out_b);
    if (in_a != in_c || out_a != out_c) ++differing;
  }
  CHECK(differing >= 4);
}

TEST_CASE("lm training: batches refuse samples without a window and ids outside the vocabulary",
          "[lm-training]") {
  const attn::LanguageModelTrainingOptions o = tiny_options();
  // No sample is longer than the context of 8.
  CHECK_THROWS_AS(
      attn::LanguageModelBatches({ids_from(0, 8), ids_from(1, 3), {}}, kContext, kWords, o),
      attn::InvalidArgument);
  CHECK_THROWS_AS(attn::LanguageModelBatches({}, kContext, kWords, o), attn::InvalidArgument);
  // Ids in [0, words]: the unknown id 30 is allowed, 31 and -1 are not.
  std::vector<int> sample = ids_from(0, 10);
  sample.push_back(kWords);
  CHECK_NOTHROW(attn::LanguageModelBatches({sample}, kContext, kWords, o));
  sample.back() = kWords + 1;
  CHECK_THROWS_AS(attn::LanguageModelBatches({sample}, kContext, kWords, o), attn::InvalidArgument);
  sample.back() = -1;
  CHECK_THROWS_AS(attn::LanguageModelBatches({sample}, kContext, kWords, o), attn::InvalidArgument);
  // An out-of-range id in a sample too short for a window is refused as well.
  CHECK_THROWS_AS(attn::LanguageModelBatches({ids_from(0, 12), {kWords + 1}}, kContext, kWords, o),
                  attn::InvalidArgument);
  // Options the check refuses.
  attn::LanguageModelTrainingOptions bad = o;
  bad.max_run = kContext + 1;
  CHECK_THROWS_AS(attn::LanguageModelBatches({ids_from(0, 12)}, kContext, kWords, bad),
                  attn::InvalidArgument);
}

TEST_CASE("lm training: keep_first_words makes every later word the unknown id", "[lm-training]") {
  const Rows samples = {{0, 5, 29, 30, 31, 100}, {}, {7, 12, 3}};
  CHECK(attn::keep_first_words(samples, 30) == Rows{{0, 5, 29, 30, 30, 30}, {}, {7, 12, 3}});
  CHECK(attn::keep_first_words(samples, 10) == Rows{{0, 5, 10, 10, 10, 10}, {}, {7, 10, 3}});
}

TEST_CASE("lm training: first_word_vectors keeps the first rows and the unknown word's",
          "[lm-training]") {
  const attn::MatrixT<float> vectors = test::random(6, 3, 17);  // 5 words and the unknown one
  const attn::MatrixT<float> kept = attn::first_word_vectors(vectors, 3);
  REQUIRE(kept.rows() == 4);
  REQUIRE(kept.cols() == 3);
  CHECK((kept.topRows(3) == vectors.topRows(3)));
  CHECK((kept.row(3) == vectors.row(5)));
  // All 5 words: the same matrix.
  CHECK((attn::first_word_vectors(vectors, 5) == vectors));
  const attn::MatrixT<float> one = attn::first_word_vectors(vectors, 1);
  REQUIRE(one.rows() == 2);
  CHECK((one.row(0) == vectors.row(0)));
  CHECK((one.row(1) == vectors.row(5)));
  CHECK_THROWS_AS(attn::first_word_vectors(vectors, 0), attn::InvalidArgument);
  CHECK_THROWS_AS(attn::first_word_vectors(vectors, -1), attn::InvalidArgument);
  CHECK_THROWS_AS(attn::first_word_vectors(vectors, 6), attn::InvalidArgument);
  CHECK_THROWS_AS(attn::first_word_vectors(vectors, 7), attn::InvalidArgument);
}

TEST_CASE("lm training: the head measurement's text, repeated runs and probe", "[lm-training]") {
  // Samples of fewer than 3 ids are skipped (the pattern scores need rows i >= 2); one longer
  // than the context is cut to it; at most `sequences` are kept.
  const Rows held_out = {{1, 2},          {3},      {5, 6, 7},    {},
                         ids_from(4, 10), {17, 18}, {14, 15, 16}, {19, 20, 21, 22}};
  const attn::HeadMeasurement m = attn::head_measurement(held_out, kContext, kWords, 3, 9, 3);
  CHECK(m.text == Rows{{5, 6, 7}, ids_from(4, kContext), {14, 15, 16}});
  CHECK(m.copy_length == kContext / 2);
  REQUIRE(m.repeated.size() == 3);
  for (const std::vector<int>& r : m.repeated) {
    REQUIRE(r.size() == static_cast<size_t>(2 * m.copy_length));
    for (int i = 0; i < m.copy_length; ++i) {
      CHECK(r[static_cast<size_t>(i + m.copy_length)] == r[static_cast<size_t>(i)]);
      CHECK(r[static_cast<size_t>(i)] >= 0);
      CHECK(r[static_cast<size_t>(i)] < kWords);
    }
    CHECK(std::set<int>(r.begin(), r.begin() + m.copy_length).size() ==
          static_cast<size_t>(m.copy_length));
  }
  // The probe is the first kept sample's 3 ids twice, whatever probe_length above 3.
  CHECK(m.probe == std::vector<int>{5, 6, 7, 5, 6, 7});
  CHECK(attn::head_measurement(held_out, kContext, kWords, 3, 9, 100).probe ==
        std::vector<int>{5, 6, 7, 5, 6, 7});
  CHECK(attn::head_measurement(held_out, kContext, kWords, 3, 9, 2).probe ==
        std::vector<int>{5, 6, 5, 6});

  // More sequences than usable samples: every usable sample once, still `sequences` runs.
  const attn::HeadMeasurement all = attn::head_measurement(held_out, kContext, kWords, 10, 9, 3);
  CHECK(all.text == Rows{{5, 6, 7}, ids_from(4, kContext), {14, 15, 16}, {19, 20, 21, 22}});
  CHECK(all.repeated.size() == 10);
  // The runs come from the seed: the same seed repeats them, another draws others.
  CHECK(std::vector<std::vector<int>>(all.repeated.begin(), all.repeated.begin() + 3) ==
        m.repeated);
  const attn::HeadMeasurement reseeded =
      attn::head_measurement(held_out, kContext, kWords, 3, 10, 3);
  CHECK(reseeded.repeated != m.repeated);
  CHECK(reseeded.text == m.text);

  // The probe: min(probe_length, context / 2, length) ids of the first kept sample, twice.
  const Rows long_first = {{3}, {1, 2}, ids_from(4, 10)};
  CHECK(attn::head_measurement(long_first, kContext, kWords, 1, 9, 3).probe ==
        std::vector<int>{4, 5, 6, 4, 5, 6});
  CHECK(attn::head_measurement(long_first, kContext, kWords, 1, 9, 100).probe ==
        std::vector<int>{4, 5, 6, 7, 4, 5, 6, 7});
  // An odd context: copy_length rounds down.
  const attn::HeadMeasurement odd = attn::head_measurement(long_first, 9, kWords, 1, 9, 100);
  CHECK(odd.copy_length == 4);
  CHECK(odd.text == Rows{ids_from(4, 9)});
  REQUIRE(odd.repeated.size() == 1);
  CHECK(odd.repeated[0].size() == 8);
  CHECK(odd.probe.size() == 8);
}

TEST_CASE("lm training: the head measurement refuses arguments out of range", "[lm-training]") {
  const Rows held_out = {ids_from(0, 10)};
  CHECK_NOTHROW(attn::head_measurement(held_out, 4, kWords, 1, 1, 1));
  CHECK_THROWS_AS(attn::head_measurement(held_out, kContext, kWords, 0, 1, 3),
                  attn::InvalidArgument);
  CHECK_THROWS_AS(attn::head_measurement(held_out, 3, kWords, 1, 1, 3), attn::InvalidArgument);
  CHECK_THROWS_AS(attn::head_measurement(held_out, kContext, kWords, 1, 1, 0),
                  attn::InvalidArgument);
  // No held-out sample of 3 or more ids.
  CHECK_THROWS_AS(attn::head_measurement({{1}, {}, {2, 3}}, kContext, kWords, 1, 1, 3),
                  attn::InvalidArgument);
  CHECK_NOTHROW(attn::head_measurement({{1}, {}, {2, 3, 4}}, kContext, kWords, 1, 1, 3));
  CHECK_THROWS_AS(attn::head_measurement({}, kContext, kWords, 1, 1, 3), attn::InvalidArgument);
  // Too few words for runs of context / 2 distinct ids.
  CHECK_NOTHROW(attn::head_measurement(held_out, kContext, 4, 1, 1, 3));
  CHECK_THROWS_AS(attn::head_measurement(held_out, kContext, 3, 1, 1, 3), attn::InvalidArgument);
}

TEST_CASE("lm training: a step is the model's loss on the next batch and one clipped Adam step",
          "[lm-training]") {
  const Rows samples = {ids_from(0, 20), {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 30}};
  attn::LanguageModelTrainingOptions o = tiny_options();
  o.clip = 0.5;
  attn::LanguageModelTraining training(tiny_config(), tiny_word_vectors(), samples, o);
  CHECK(training.steps_taken() == 0);
  CHECK(training.options().seed == o.seed);
  CHECK(training.model().config().seed == tiny_config().seed);

  // The same by hand: a fresh model from config.seed, the batches from options.seed, and Adam.
  attn::LanguageModel<float> model(tiny_config(), tiny_word_vectors());
  attn::LanguageModelBatches batches(samples, kContext, kWords, o);
  attn::AdamOptions adam_options;
  adam_options.learning_rate = attn::scheduled_rate(attn::schedule_of(o), 1);
  attn::Adam<float> adam(model.parameters(), adam_options);
  Rows inputs, targets;
  for (long k = 1; k <= 3; ++k) {
    const attn::LanguageModelTraining::Step step = training.step();
    CHECK(training.steps_taken() == k);
    batches.next(inputs, targets);
    adam.set_learning_rate(attn::scheduled_rate(attn::schedule_of(o), k));
    model.zero_grad();
    const float loss = model.loss_and_backward(inputs, targets);
    const float norm = attn::clip_global_norm(model.parameters(), 0.5f);
    adam.step();
    CHECK(step.loss == loss);
    CHECK(step.gradient_norm == norm);
    CHECK(step.learning_rate == attn::scheduled_rate(attn::schedule_of(o), k));
    const auto trained = training.model().parameters();
    const auto expected = model.parameters();
    REQUIRE(trained.size() == expected.size());
    for (size_t p = 0; p < trained.size(); ++p) {
      INFO(expected[p]->name);
      CHECK((trained[p]->value == expected[p]->value));
    }
  }
}

TEST_CASE("lm training: steps report finite losses and the scheduled learning rates",
          "[lm-training]") {
  const Rows samples = {ids_from(0, 30), {5, 6, 7, 5, 6, 7, 5, 6, 7, 5, 6, 7}};
  const attn::LanguageModelTrainingOptions o = tiny_options();
  attn::LanguageModelTraining training(tiny_config(), tiny_word_vectors(), samples, o);
  for (long k = 1; k <= 12; ++k) {
    const attn::LanguageModelTraining::Step step = training.step();
    CHECK(std::isfinite(step.loss));
    CHECK(step.loss > 0);
    CHECK(std::isfinite(step.gradient_norm));
    CHECK(step.gradient_norm > 0);
    CHECK(step.learning_rate == attn::scheduled_rate(attn::schedule_of(o), k));
    CHECK(training.steps_taken() == k);
  }
  // The warm-up of 5 steps reaches the peak at step 5.
  CHECK(attn::scheduled_rate(attn::schedule_of(o), 5) == Approx(o.learning_rate));
}

TEST_CASE("lm training: the same seeds give bit-identical losses", "[lm-training]") {
  const Rows samples = {ids_from(0, 30), {5, 6, 7, 5, 6, 7, 5, 6, 7, 5, 6, 7}};
  const attn::LanguageModelTrainingOptions o = tiny_options();
  attn::LanguageModelTraining a(tiny_config(), tiny_word_vectors(), samples, o);
  attn::LanguageModelTraining b(tiny_config(), tiny_word_vectors(), samples, o);
  attn::LanguageModelTrainingOptions reseeded = o;
  reseeded.seed = o.seed + 1;
  attn::LanguageModelTraining c(tiny_config(), tiny_word_vectors(), samples, reseeded);
  int differing = 0;
  for (int k = 0; k < 5; ++k) {
    const attn::LanguageModelTraining::Step x = a.step(), y = b.step(), z = c.step();
    CHECK(x.loss == y.loss);
    CHECK(x.gradient_norm == y.gradient_norm);
    CHECK(x.learning_rate == y.learning_rate);
    if (x.loss != z.loss) ++differing;
  }
  CHECK(differing >= 4);
  // The weights after the steps as well.
  const auto pa = a.model().parameters();
  const auto pb = b.model().parameters();
  for (size_t p = 0; p < pa.size(); ++p) CHECK((pa[p]->value == pb[p]->value));
}

TEST_CASE("lm training: sixty steps on a repetitive text lower the loss", "[lm-training]") {
  // A cycle of 10 words, written out 6 times, and the same cycle from its middle.
  std::vector<int> cycle;
  for (int r = 0; r < 6; ++r) {
    for (int id = 0; id < 10; ++id) cycle.push_back(id);
  }
  std::vector<int> shifted(cycle.begin() + 5, cycle.end());
  attn::LanguageModelTrainingOptions o = tiny_options();
  attn::LanguageModelTraining training(tiny_config(), tiny_word_vectors(), {cycle, shifted}, o);
  std::vector<float> losses;
  for (int k = 0; k < 60; ++k) losses.push_back(training.step().loss);
  CHECK(training.steps_taken() == 60);
  const double first = mean(losses, 0, 10), last = mean(losses, 50, 10);
  INFO("first 10 steps " << first << ", last 10 " << last);
  CHECK(last < first);
  // From about 3.3 nats (log 31 = 3.43) to about 1.3: the model has learnt much of the cycle.
  CHECK(last < first - 1.0);
}

TEST_CASE("lm training: the training refuses what the model and the batches refuse",
          "[lm-training]") {
  const Rows samples = {ids_from(0, 20)};
  const attn::LanguageModelTrainingOptions o = tiny_options();
  // Word vectors of the wrong shape.
  CHECK_THROWS_AS(
      attn::LanguageModelTraining(tiny_config(), test::random(kWords, 8, 51), samples, o),
      attn::InvalidArgument);
  // No window, an id past the unknown one, options out of range.
  CHECK_THROWS_AS(
      attn::LanguageModelTraining(tiny_config(), tiny_word_vectors(), {ids_from(0, 8)}, o),
      attn::InvalidArgument);
  CHECK_THROWS_AS(attn::LanguageModelTraining(tiny_config(), tiny_word_vectors(),
                                              {ids_from(0, 20), {kWords + 1}}, o),
                  attn::InvalidArgument);
  attn::LanguageModelTrainingOptions bad = o;
  bad.learning_rate = 0;
  CHECK_THROWS_AS(attn::LanguageModelTraining(tiny_config(), tiny_word_vectors(), samples, bad),
                  attn::InvalidArgument);
}

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "../../src/beam_search.hpp"
#include "attn/random.hpp"
#include "attn/translator.hpp"
#include "gradient_check.hpp"

using attn::Bridge;

namespace {

// A tiny model whose every output can be enumerated: 6 English words of width 3 (id 6 unknown),
// German ids 0-3 special and target_words - 4 words, states of 2 a direction and 3 in the decoder.
// Every parameter is drawn at random: the seeded start leaves the biases at zero and the logits
// nearly flat, where the best output would be a matter of rounding.
template <typename T>
attn::Translator<T> search_model(Bridge bridge, int target_words, std::uint64_t seed) {
  // bridge, source_words, source_width, target_words, target_width, encoder_state, decoder_state,
  // attention, seed
  const attn::TranslatorConfig c{bridge, 6, 3, target_words, 3, 2, 3, 2, 1};
  attn::Translator<T> model(c, test::random_d(6, 3, seed).cast<T>());
  std::uint64_t next = seed * 100;
  for (auto* p : model.parameters()) {
    p->value = (test::random_d(static_cast<int>(p->value.rows()), static_cast<int>(p->value.cols()),
                               ++next) *
                0.8)
                   .template cast<T>();
    // The loss's softmax runs over every id, decoding's over those the model may write (all but
    // padding and <s>). At logits of -1000 padding and <s> get no share of the loss's softmax
    // (their exp is 0 in float, below 1e-400 in double), so the two give the same
    // log-probabilities.
    if (p->name == "logit_b") {
      p->value(0, attn::kTargetPadding) = T(-1000);
      p->value(0, attn::kTargetStart) = T(-1000);
    }
  }
  return model;
}

// One output the model can write, with the total log-probability teacher forcing gives it and that
// total over translation_length_penalty.
struct Output {
  std::vector<int> words;  // without </s>
  double log_probability = 0, score = 0;
};

// forward() on a batch of the one pair gives the mean cross-entropy over the words and </s>, so
// the total log-probability is -loss * counted.
template <typename T>
double teacher_forced_log_probability(const attn::Translator<T>& model,
                                      const std::vector<int>& source,
                                      const std::vector<int>& words) {
  attn::TranslationBatch batch;
  batch.sources = {source};
  batch.targets = {words};
  const attn::TranslatorPass<T> pass = model.forward(batch);
  return -static_cast<double>(pass.loss) * pass.counted;
}

// Every output of at most max_words words: 1 + w + w^2 + ... of them for w German words.
template <typename T>
std::vector<Output> every_output(const attn::Translator<T>& model, const std::vector<int>& source,
                                 int max_words) {
  std::vector<Output> all(1);
  for (size_t i = 0; i < all.size(); ++i) {
    if (static_cast<int>(all[i].words.size()) == max_words) continue;
    for (int v = attn::kTargetEnd + 1; v < model.config().target_words; ++v) {
      Output longer;
      longer.words = all[i].words;
      longer.words.push_back(v);
      all.push_back(longer);
    }
  }
  for (Output& o : all) {
    o.log_probability = teacher_forced_log_probability(model, source, o.words);
    o.score =
        o.log_probability / attn::translation_length_penalty(static_cast<int>(o.words.size()) + 1);
  }
  return all;
}

// How far a translation's log_probability may be from teacher forcing's. Float: the loss sums its
// float cross-entropies and the decoder its double log-softmax of float logits, each within a few
// 1e-7 of the exact value. Double: both within 1e-12 or so, but Translation::log_probability is a
// float, which rounds by up to half a unit in its last place.
template <typename T>
double log_probability_margin(double log_probability) {
  if (std::is_same_v<T, float>) return 1e-4;
  return 1e-10 + std::abs(log_probability) * std::numeric_limits<float>::epsilon() / 2;
}

const std::vector<std::vector<int>> kSources{{0, 4, 6, 2}, {5, 1}, {3}};

// The two tiny search spaces: 6 German ids up to 2 words (13 outputs), 5 up to 3 (15 outputs).
struct Space {
  int target_words, max_words;
};
const Space kSpaces[] = {{6, 2}, {5, 3}};

template <typename T>
void check_beam_one_is_greedy() {
  for (const Bridge bridge : {Bridge::fixed_vector, Bridge::attention}) {
    INFO(attn::bridge_name(bridge));
    auto model = search_model<T>(bridge, 9, 3);
    std::vector<attn::MatrixT<T>> values;
    for (auto* p : model.parameters()) values.push_back(p->value);
    const attn::FrozenTranslator<T> frozen(attn::Translator<T>::from_weights(
        model.config(), std::make_shared<const attn::MatrixT<T>>(model.word_vectors()), values));
    for (const std::vector<int>& source : kSources) {
      for (const int max_words : {0, 2, 12}) {
        const attn::Translation greedy = model.translate(source, max_words);
        for (const attn::Translation& beam :
             {model.translate(source, max_words, 1), frozen.translate(source, max_words, 1)}) {
          CHECK(beam.words == greedy.words);
          CHECK(beam.weights == greedy.weights);
          CHECK(beam.scores == greedy.scores);
          CHECK(beam.log_probability == greedy.log_probability);
        }
        // Greedy: each word written, and </s> unless max_words forced it, is its step's
        // likeliest. Teacher forcing on the words gives every step's softmax: dL/dlogits =
        // (softmax - one-hot) / counted.
        if (!std::is_same_v<T, double>) continue;
        attn::TranslationBatch batch;
        batch.sources = {source};
        batch.targets = {greedy.words};
        const attn::TranslatorPass<T> pass = model.forward(batch);
        for (size_t t = 0; t <= greedy.words.size(); ++t) {
          if (static_cast<int>(t) == max_words) break;  // a step max_words forced to end
          const auto row = static_cast<Eigen::Index>(t);
          const int written = t < greedy.words.size() ? greedy.words[t] : attn::kTargetEnd;
          const double p_written = pass.d_logits(row, written) * pass.counted + 1;
          for (int v = attn::kTargetEnd; v < model.config().target_words; ++v) {
            if (v != written) CHECK(pass.d_logits(row, v) * pass.counted < p_written);
          }
        }
      }
    }
  }
}

template <typename T>
void check_exhaustive_beam() {
  for (const Bridge bridge : {Bridge::fixed_vector, Bridge::attention}) {
    for (const Space space : kSpaces) {
      for (const std::uint64_t seed : {1, 2}) {
        const auto model = search_model<T>(bridge, space.target_words, seed);
        for (const std::vector<int>& source : kSources) {
          INFO(attn::bridge_name(bridge)
               << ", " << space.target_words << " ids up to " << space.max_words << " words, seed "
               << seed << ", source of " << source.size());
          const std::vector<Output> all = every_output(model, source, space.max_words);
          size_t best = 0;
          for (size_t i = 1; i < all.size(); ++i) {
            if (all[i].score > all[best].score) best = i;
          }
          double runner_up = -std::numeric_limits<double>::infinity();
          for (size_t i = 0; i < all.size(); ++i) {
            if (i != best) runner_up = std::max(runner_up, all[i].score);
          }
          REQUIRE(all[best].score - runner_up > 1e-3);  // a clear best, whatever the rounding
          // Each finished hypothesis takes a place of the beam: a beam as wide as the number of
          // outputs keeps every one.
          const int whole = static_cast<int>(all.size());
          REQUIRE(whole <= attn::kMaxBeam);
          for (const int beam : {whole, attn::kMaxBeam}) {
            INFO("beam " << beam);
            const attn::Translation out = model.translate(source, space.max_words, beam);
            CHECK(out.words == all[best].words);
            CHECK(out.log_probability ==
                  Approx(all[best].log_probability)
                      .margin(log_probability_margin<T>(all[best].log_probability)));
          }
        }
      }
    }
  }
}

template <typename T>
void check_narrower_beams() {
  for (const Bridge bridge : {Bridge::fixed_vector, Bridge::attention}) {
    for (const Space space : kSpaces) {
      const auto model = search_model<T>(bridge, space.target_words, 4);
      for (const std::vector<int>& source : kSources) {
        INFO(attn::bridge_name(bridge) << ", " << space.target_words << " ids up to "
                                       << space.max_words << " words, source of " << source.size());
        const std::vector<Output> all = every_output(model, source, space.max_words);
        double best = -std::numeric_limits<double>::infinity();
        for (const Output& o : all) best = std::max(best, o.score);
        for (int beam = 1; beam <= attn::kMaxBeam; ++beam) {
          INFO("beam " << beam);
          const attn::Translation out = model.translate(source, space.max_words, beam);
          const auto length = static_cast<long>(out.words.size()) + 1;
          // Its words' own log-probability, as teacher forcing gives it, and a normalised score
          // no higher than the search space's best.
          const double log_probability = teacher_forced_log_probability(model, source, out.words);
          CHECK(out.log_probability ==
                Approx(log_probability).margin(log_probability_margin<T>(log_probability)));
          const double score =
              log_probability / attn::translation_length_penalty(static_cast<int>(length));
          CHECK(score <= best + 1e-6);
          if (beam >= static_cast<int>(all.size())) CHECK(score == Approx(best).margin(1e-6));
          REQUIRE(out.weights.rows() == length);
          REQUIRE(out.scores.rows() == length);
          if (bridge == Bridge::fixed_vector) {
            CHECK(out.weights.cols() == 0);
            continue;
          }
          REQUIRE(out.weights.cols() == static_cast<long>(source.size()));
          for (long t = 0; t < length; ++t) {
            CHECK(out.weights.row(t).template cast<double>().sum() == Approx(1).margin(1e-6));
            CHECK(out.weights.row(t).minCoeff() >= 0);
          }
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("translator beam: a beam of 1 is greedy decoding, bit for bit", "[translator-beam]") {
  SECTION("in float") { check_beam_one_is_greedy<float>(); }
  SECTION("in double, each word written its step's likeliest") {
    check_beam_one_is_greedy<double>();
  }
}

TEST_CASE(
    "translator beam: a beam as wide as the search space finds the output of the highest "
    "normalised score, with teacher forcing's log-probability",
    "[translator-beam]") {
  SECTION("in float") { check_exhaustive_beam<float>(); }
  SECTION("in double") { check_exhaustive_beam<double>(); }
}

TEST_CASE(
    "translator beam: no beam finds a higher normalised score than the whole search, and each "
    "finds its words' own log-probability and weight rows that sum to 1",
    "[translator-beam]") {
  SECTION("in float") { check_narrower_beams<float>(); }
  SECTION("in double") { check_narrower_beams<double>(); }
}

TEST_CASE("translator beam: a translation's weights and scores are those of its own words",
          "[translator-beam]") {
  // Teacher forcing on the words the search chose runs the same decoder steps: the same bits.
  const auto model = search_model<float>(Bridge::attention, 9, 5);
  for (const int beam : {1, 3, 16}) {
    INFO("beam " << beam);
    const attn::Translation out = model.translate({0, 4, 6, 2, 1}, 12, beam);
    attn::TranslationBatch batch;
    batch.sources = {{0, 4, 6, 2, 1}};
    batch.targets = {out.words};
    const attn::TranslatorPass<float> pass = model.forward(batch);
    REQUIRE(pass.steps.size() == out.words.size() + 1);
    for (size_t t = 0; t < pass.steps.size(); ++t) {
      const auto row = static_cast<Eigen::Index>(t);
      CHECK(attn::Matrix(pass.steps[t].attention[0].weights) == attn::Matrix(out.weights.row(row)));
      CHECK(attn::Matrix(pass.steps[t].attention[0].scores) == attn::Matrix(out.scores.row(row)));
    }
  }
}

TEST_CASE("translator beam: the same inputs give the same bits twice", "[translator-beam]") {
  for (const Bridge bridge : {Bridge::fixed_vector, Bridge::attention}) {
    INFO(attn::bridge_name(bridge));
    const auto model = search_model<float>(bridge, 40, 6);
    const attn::FrozenTranslator<float> frozen(search_model<float>(bridge, 40, 6));
    for (const int beam : {2, 4, 16}) {
      const attn::Translation a = model.translate({5, 0, 3, 3, 6}, 20, beam),
                              b = model.translate({5, 0, 3, 3, 6}, 20, beam),
                              c = frozen.translate({5, 0, 3, 3, 6}, 20, beam);
      for (const attn::Translation* again : {&b, &c}) {
        CHECK(again->words == a.words);
        CHECK(again->weights == a.weights);
        CHECK(again->scores == a.scores);
        CHECK(again->log_probability == a.log_probability);
      }
    }
  }
}

TEST_CASE("translator beam: a beam outside [1, 16] is refused", "[translator-beam]") {
  const auto model = search_model<double>(Bridge::attention, 9, 1);
  const attn::FrozenTranslator<double> frozen(search_model<double>(Bridge::attention, 9, 1));
  for (const int beam : {0, -1, 17}) {
    const std::string message = "beam must be between 1 and 16, got " + std::to_string(beam);
    CHECK_THROWS_WITH(model.translate({1, 2}, 5, beam), Catch::Contains(message));
    CHECK_THROWS_WITH(frozen.translate({1, 2}, 5, beam), Catch::Contains(message));
  }
  CHECK(model.translate({1, 2}, 0, 16).words.empty());  // max_words 0: </s> at once
}

TEST_CASE("translator beam: the length penalty is GNMT's ((5 + L) / 6)^0.6", "[translator-beam]") {
  for (int length = 1; length <= attn::kMaxTranslationLength; ++length) {
    CHECK(attn::translation_length_penalty(length) ==
          Approx(std::pow((5.0 + length) / 6.0, 0.6)).epsilon(1e-14));
  }
  CHECK(attn::translation_length_penalty(1) == 1);
  CHECK_THROWS_WITH(attn::translation_length_penalty(0),
                    Catch::Contains("a translation's length must be between 1 and 128 tokens"));
  CHECK_THROWS_WITH(attn::translation_length_penalty(129), Catch::Contains("got 129"));
}

TEST_CASE("translator beam: the softmax's denominator, four ids at a time, as one at a time",
          "[translator-beam]") {
  // Rows of every length mod 4 around a vocabulary's size, with logits far below the top (whose
  // terms vanish), NaN-free, and the top itself: the float sum must be the one-id-at-a-time sum
  // of detail::portable_exp's terms, bit for bit, and near the library's exp.
  attn::Rng rng(11);
  for (const int words : {2, 3, 5, 6, 7, 9, 8000, 8001, 8002, 8003}) {
    std::vector<float> logits(static_cast<std::size_t>(words));
    for (float& l : logits) l = static_cast<float>((rng.uniform() - 0.7) * 60.0);
    float top = -std::numeric_limits<float>::infinity();
    for (int v = attn::kTargetEnd; v < words; ++v) top = std::max(top, logits[v]);
    if (words == 2) top = 0.0f;  // no id to write: an empty sum
    double sums[4] = {0, 0, 0, 0}, library = 0;
    for (int v = attn::kTargetEnd; v < words; ++v) {
      sums[(v - attn::kTargetEnd) % 4] += attn::detail::portable_exp(logits[v] - top);
      library += std::exp(static_cast<double>(logits[v] - top));
    }
    const double expected = (sums[0] + sums[1]) + (sums[2] + sums[3]);
    const double got = attn::detail::sum_of_exp_below(logits.data(), words, top);
    INFO("words = " << words);
    CHECK(std::memcmp(&got, &expected, sizeof got) == 0);
    CHECK(got == Approx(library).epsilon(1e-6));
    if (words > 2) CHECK(got >= 1.0);  // the top's own term is 1
  }
}

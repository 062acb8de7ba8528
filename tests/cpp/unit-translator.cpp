#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "attn/translator.hpp"
#include "gradient_check.hpp"
#include "translation_fixtures.hpp"

using attn::Bridge;

namespace {

// A tiny model of either kind: 6 English words of width 3 (id 6 unknown), 8 German ids (4 special),
// states of 2 a direction and 3 in the decoder.
attn::TranslatorConfig tiny_config(Bridge bridge) {
  // bridge, source_words, source_width, target_words, target_width, encoder_state, decoder_state,
  // attention, seed
  return {bridge, 6, 3, 8, 3, 2, 3, 2, 5};
}

template <typename T>
attn::Translator<T> tiny_model(Bridge bridge) {
  return attn::Translator<T>(tiny_config(bridge), test::random_d(6, 3, 40).cast<T>());
}

// tiny_model in double with the zero-initialised vectors started away from zero, so that every
// path carries a gradient: for the gradient checks.
attn::Translator<double> gradient_model(Bridge bridge) {
  auto model = tiny_model<double>(bridge);
  for (auto* p : model.parameters()) {
    if (p->value.isZero(0)) p->value = test::random_d(p->value.rows(), p->value.cols(), 41) * 0.3;
  }
  return model;
}

}  // namespace

TEST_CASE("translator: every parameter's gradient matches central differences", "[translator]") {
  for (const Bridge bridge : {Bridge::fixed_vector, Bridge::attention}) {
    INFO(attn::bridge_name(bridge));
    auto model = gradient_model(bridge);
    const attn::TranslationBatch batch = test::tiny_translation_batch();
    test::check_every_gradient(model, model.forward(batch),
                               [&] { return model.forward(batch).loss; });
  }
}

TEST_CASE("translator: with dropout, the gradient matches central differences of the same masks",
          "[translator]") {
  for (const Bridge bridge : {Bridge::fixed_vector, Bridge::attention}) {
    INFO(attn::bridge_name(bridge));
    auto model = gradient_model(bridge);
    test::check_dropout_gradients(model, [](const auto& pass) {
      REQUIRE(pass.source_mask.size() > 0);
      REQUIRE(pass.target_mask.size() > 0);
      REQUIRE(pass.output_mask.size() > 0);
    });
  }
}

TEST_CASE("translator: dropout needs a rate in [0, 1) and a generator", "[translator]") {
  const auto model = tiny_model<double>(Bridge::attention);
  attn::Rng rng(1);
  CHECK_THROWS_AS(model.forward(test::tiny_translation_batch(), 0.2), attn::InvalidArgument);
  CHECK_THROWS_AS(model.forward(test::tiny_translation_batch(), 1.0, &rng), attn::InvalidArgument);
  CHECK(model.forward(test::tiny_translation_batch(), 0.0).source_mask.size() == 0);
}

TEST_CASE("translator: a pair's loss does not depend on the pairs padded beside it",
          "[translator]") {
  for (const Bridge bridge : {Bridge::fixed_vector, Bridge::attention}) {
    INFO(attn::bridge_name(bridge));
    test::check_pairs_independent(tiny_model<double>(bridge));
  }
}

TEST_CASE("translator: a translation's attention rows are distributions over the English words",
          "[translator]") {
  const auto model = tiny_model<float>(Bridge::attention);
  const attn::Translation out = model.translate({0, 3, 6, 2, 1}, 9);
  CHECK(out.words.size() <= 9);
  REQUIRE(out.weights.rows() == static_cast<long>(out.words.size()) + 1);
  REQUIRE(out.weights.cols() == 5);
  for (long t = 0; t < out.weights.rows(); ++t) {
    CHECK(out.weights.row(t).sum() == Approx(1).epsilon(1e-5));
    CHECK(out.weights.row(t).minCoeff() >= 0);
  }
  for (const int w : out.words) {
    CHECK(w > attn::kTargetEnd);
    CHECK(w < 8);
  }
  CHECK(out.log_probability <= 0);
  const attn::Translation none = model.translate({0}, 0);
  CHECK(none.words.empty());
  CHECK(none.weights.rows() == 1);
}

TEST_CASE("translator: each attention row is the softmax of the step's additive scores",
          "[translator]") {
  const auto model = tiny_model<float>(Bridge::attention);
  const attn::Translation out = model.translate({0, 3, 6, 2, 1}, 9);
  REQUIRE(out.scores.rows() == out.weights.rows());
  REQUIRE(out.scores.cols() == out.weights.cols());
  for (long t = 0; t < out.scores.rows(); ++t) {
    // The softmax again, in double: float's rounding of the core's exp and sum leaves each weight
    // within a few 1e-7 of it.
    const double top = out.scores.row(t).maxCoeff();
    double total = 0;
    for (long j = 0; j < out.scores.cols(); ++j) total += std::exp(out.scores(t, j) - top);
    for (long j = 0; j < out.scores.cols(); ++j) {
      CHECK(std::exp(out.scores(t, j) - top) / total == Approx(out.weights(t, j)).margin(1e-6));
    }
  }
}

TEST_CASE("translator: a frozen model of the same weights translates bit for bit alike",
          "[translator]") {
  for (const Bridge bridge : {Bridge::fixed_vector, Bridge::attention}) {
    INFO(attn::bridge_name(bridge));
    auto model = tiny_model<float>(bridge);
    std::vector<attn::MatrixT<float>> values;
    for (auto* p : model.parameters()) values.push_back(p->value);
    const auto vectors = std::make_shared<const attn::MatrixT<float>>(model.word_vectors());
    const attn::FrozenTranslator<float> frozen(
        attn::Translator<float>::from_weights(tiny_config(bridge), vectors, values));
    CHECK(&frozen.model().word_vectors() == vectors.get());  // shared, not copied
    for (const std::vector<int>& source : {std::vector<int>{0, 3, 6, 2, 1}, {4}, {5, 5, 1, 0}}) {
      const attn::Translation a = model.translate(source, 9), b = frozen.translate(source, 9);
      CHECK(a.words == b.words);
      CHECK(a.weights == b.weights);
      CHECK(a.scores == b.scores);
      CHECK(a.scores.cols() ==
            (bridge == Bridge::attention ? static_cast<long>(source.size()) : 0));
      CHECK(a.log_probability == b.log_probability);
    }
  }
}

TEST_CASE("translator: a model made from weights trains as the seeded one", "[translator]") {
  auto model = tiny_model<double>(Bridge::attention);
  std::vector<attn::MatrixT<double>> values;
  for (auto* p : model.parameters()) values.push_back(p->value);
  auto read = attn::Translator<double>::from_weights(
      tiny_config(Bridge::attention),
      std::make_shared<const attn::MatrixT<double>>(model.word_vectors()), values);
  const auto params = model.parameters(), read_params = read.parameters();
  REQUIRE(params.size() == read_params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    CHECK(read_params[i]->name == params[i]->name);
    CHECK(read_params[i]->grad.size() == 0);  // none until backward needs them
  }
  model.zero_grad();
  model.backward(model.forward(test::tiny_translation_batch()));
  read.backward(read.forward(test::tiny_translation_batch()));
  for (size_t i = 0; i < params.size(); ++i) CHECK(read_params[i]->grad == params[i]->grad);
  values.pop_back();
  CHECK_THROWS_WITH(
      attn::Translator<double>::from_weights(
          tiny_config(Bridge::attention),
          std::make_shared<const attn::MatrixT<double>>(model.word_vectors()), values),
      Catch::Contains("the weights hold 22 parameters, the model 23"));
}

TEST_CASE("translator: the fixed vector model gives no weights, the same way every time",
          "[translator]") {
  const auto model = tiny_model<float>(Bridge::fixed_vector);
  const attn::Translation a = model.translate({4, 4, 1}, 12), b = model.translate({4, 4, 1}, 12);
  CHECK(a.words == b.words);
  CHECK(a.weights.cols() == 0);
  CHECK(a.weights.rows() == static_cast<long>(a.words.size()) + 1);
}

TEST_CASE("translator: both models share every weight they have in common", "[translator]") {
  auto fixed = tiny_model<float>(Bridge::fixed_vector);
  auto attending = tiny_model<float>(Bridge::attention);
  const auto f = fixed.parameters(), a = attending.parameters();
  REQUIRE(a.size() == f.size() + 4);
  for (size_t i = 0; i < f.size(); ++i) {
    CHECK(f[i]->name == a[i]->name);
    CHECK(f[i]->value == a[i]->value);
  }
}

TEST_CASE("translator: sentences and ids out of range are named", "[translator]") {
  const auto model = tiny_model<double>(Bridge::attention);
  attn::TranslationBatch batch = test::tiny_translation_batch();
  batch.sources[1] = {};
  CHECK_THROWS_WITH(model.forward(batch), Catch::Contains("source 1 has 0 tokens"));
  batch = test::tiny_translation_batch();
  batch.sources[0][2] = 7;
  CHECK_THROWS_WITH(model.forward(batch), Catch::Contains("source 0 has id 7 at 2, outside 0..6"));
  batch = test::tiny_translation_batch();
  batch.targets[1] = {1};
  CHECK_THROWS_WITH(model.forward(batch), Catch::Contains("target 1 has id 1 at 0, outside 3..7"));
  batch = test::tiny_translation_batch();
  batch.targets.pop_back();
  CHECK_THROWS_WITH(model.forward(batch), Catch::Contains("as many targets as sources"));
  CHECK_THROWS_WITH(model.translate(std::vector<int>(129, 1), 5),
                    Catch::Contains("the sentence has 129 tokens; it needs 1 to 128"));
  CHECK_THROWS_WITH(model.translate({1}, 128), Catch::Contains("max_words must be between 0"));
  auto config = tiny_config(Bridge::attention);
  config.target_words = 4;
  CHECK_THROWS_WITH(attn::Translator<double>(config, test::random_d(6, 3, 1)),
                    Catch::Contains("target_words must be between 5"));
  CHECK_THROWS_WITH(
      attn::Translator<double>(tiny_config(Bridge::attention), test::random_d(5, 3, 1)),
      Catch::Contains("the word vectors are 5x3 but the config says 6x3"));
}

TEST_CASE("translator: the parameter shapes are worked out as the model has them", "[translator]") {
  for (const Bridge bridge : {Bridge::fixed_vector, Bridge::attention}) {
    auto model = tiny_model<float>(bridge);
    const auto shapes = attn::translator_parameter_shapes(tiny_config(bridge));
    const auto parameters = model.parameters();
    REQUIRE(shapes.size() == parameters.size());
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      INFO(parameters[i]->name);
      CHECK(shapes[i].first == parameters[i]->value.rows());
      CHECK(shapes[i].second == parameters[i]->value.cols());
    }
  }
}

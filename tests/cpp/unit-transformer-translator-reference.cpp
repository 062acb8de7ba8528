// The whole Transformer translator against PyTorch's own modules (nn.Linear,
// nn.TransformerEncoderLayer and nn.TransformerDecoderLayer with norm_first=True and GELU in its
// tanh form, nn.LayerNorm, nn.Embedding tied to the output, F.cross_entropy with label smoothing;
// tools/make_transformer_translator_fixture.py): on a batch of two pairs with padding, the loss
// and every parameter's gradient, without and with label smoothing.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "attn/transformer_translator.hpp"
#include "fixtures/transformer_translator.hpp"

namespace {

// at() throughout: a missing key or index throws (operator[] on a const document does not check).
using nlohmann::json;

const json& fixture() {
  static const json document = json::parse(test::fixtures::kTransformerTranslator);
  return document;
}

int config(const char* name) { return fixture().at("config").at(name).get<int>(); }

std::vector<double> numbers(const json& array) { return array.get<std::vector<double>>(); }

template <typename T>
attn::TransformerTranslator<T> fixture_model() {
  attn::TransformerTranslatorConfig c;
  c.source_words = config("sourceWords");
  c.source_width = config("sourceWidth");
  c.target_words = config("targetWords");
  c.d_model = config("dModel");
  c.heads = config("heads");
  c.encoder_layers = config("encoderLayers");
  c.decoder_layers = config("decoderLayers");
  c.d_mlp = config("dMlp");
  const std::vector<double> x = numbers(fixture().at("wordVectors"));
  attn::MatrixT<T> vectors(c.source_words, c.source_width);
  for (Eigen::Index i = 0; i < vectors.size(); ++i) vectors.data()[i] = static_cast<T>(x[i]);
  attn::TransformerTranslator<T> model(c, vectors);
  // Every parameter set by name (each must be there, with the core's shape).
  const json& stored = fixture().at("parameters");
  const auto own = model.parameters();
  REQUIRE(own.size() == stored.size());
  for (attn::Parameter<T>* p : own) {
    INFO(p->name);
    const json& entry = stored.at(p->name);
    REQUIRE(entry.at("shape").at(0).get<int>() == p->value.rows());
    REQUIRE(entry.at("shape").at(1).get<int>() == p->value.cols());
    const std::vector<double> values = numbers(entry.at("value"));
    for (Eigen::Index i = 0; i < p->value.size(); ++i) {
      p->value.data()[i] = static_cast<T>(values[static_cast<size_t>(i)]);
    }
  }
  model.zero_grad();
  return model;
}

attn::TranslationBatch fixture_batch() {
  attn::TranslationBatch batch;
  batch.sources = fixture().at("sources").get<std::vector<std::vector<int>>>();
  batch.targets = fixture().at("targets").get<std::vector<std::vector<int>>>();
  return batch;
}

// Largest |a - b| / max |b| over a parameter's gradient: relative to its largest entry.
template <typename T>
double worst_error(const attn::MatrixT<T>& actual, const std::vector<double>& expected) {
  REQUIRE(static_cast<Eigen::Index>(expected.size()) == actual.size());
  double top = 1e-300;
  for (const double e : expected) top = std::max(top, std::abs(e));
  double worst = 0;
  for (Eigen::Index i = 0; i < actual.size(); ++i) {
    worst = std::max(
        worst,
        std::abs(static_cast<double>(actual.data()[i]) - expected[static_cast<size_t>(i)]) / top);
  }
  return worst;
}

// Largest |a - b| over a gradient.
template <typename T>
double worst_difference(const attn::MatrixT<T>& actual, const std::vector<double>& expected) {
  REQUIRE(static_cast<Eigen::Index>(expected.size()) == actual.size());
  double worst = 0;
  for (Eigen::Index i = 0; i < actual.size(); ++i) {
    worst = std::max(
        worst, std::abs(static_cast<double>(actual.data()[i]) - expected[static_cast<size_t>(i)]));
  }
  return worst;
}

bool is_key_bias(const std::string& name) {
  return name.size() > 4 && name.compare(name.size() - 4, 4, ".b_k") == 0;
}

// The loss and every gradient of the model in T against the fixture's cases. The fixture's
// gradients are rounded to 8 significant digits and its positions are float32 sinusoids, as the
// core's: in double the loss agrees to about 1e-16 and the gradients to about 5e-8 of each
// matrix's largest entry (the rounding); in float the model's own rounding (about 1e-7 a step,
// over a few dozen steps) makes it about 3e-6.
template <typename T>
void check_against_fixture(double tolerance) {
  for (const json& c : fixture().at("cases")) {
    const double smoothing = c.at("labelSmoothing").get<double>();
    INFO("label smoothing " << smoothing);
    auto model = fixture_model<T>();
    const auto pass = model.forward(fixture_batch(), 0, nullptr, smoothing);
    const double loss = c.at("loss").get<double>();
    CHECK(std::abs(static_cast<double>(pass.loss) - loss) <= tolerance * std::abs(loss));
    model.backward(pass);
    for (attn::Parameter<T>* p : model.parameters()) {
      INFO(p->name);
      const std::vector<double> expected = numbers(c.at("gradients").at(p->name));
      // The key biases b_k have a gradient of 0 in exact arithmetic (a softmax ignores what
      // q . b_k adds to every score alike): both sides hold only rounding error, compared
      // absolutely, against the loss's scale of 1.
      if (is_key_bias(p->name)) {
        const double difference = worst_difference(p->grad, expected);
        CHECK(difference <= tolerance * 1e-2);
        continue;
      }
      const double error = worst_error(p->grad, expected);
      CHECK(error <= tolerance);
    }
  }
}

}  // namespace

TEST_CASE("transformer translator vs PyTorch: the loss and every gradient in double",
          "[transformer-translator-reference]") {
  check_against_fixture<double>(1e-6);
}

TEST_CASE("transformer translator vs PyTorch: the loss and every gradient in float within 1e-5",
          "[transformer-translator-reference]") {
  check_against_fixture<float>(1e-5);
}

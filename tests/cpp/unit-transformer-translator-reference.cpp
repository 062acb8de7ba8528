// The whole Transformer translator against PyTorch's own modules (nn.Linear,
// nn.TransformerEncoderLayer and nn.TransformerDecoderLayer with norm_first=True and GELU in its
// tanh form, nn.LayerNorm, nn.Embedding tied to the output, F.cross_entropy with label smoothing;
// tools/make_transformer_translator_fixture.py): on a batch of two pairs with padding, the loss
// and every parameter's gradient, without and with label smoothing.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "attn/transformer_translator.hpp"
#include "fixtures/transformer_translator.hpp"
#include "reference_fixture.hpp"

namespace {

using test::json;
using test::numbers;

const json& fixture() {
  static const json document = json::parse(test::fixtures::kTransformerTranslator);
  return document;
}

int config(const char* name) { return fixture().at("config").at(name).get<int>(); }

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
  attn::TransformerTranslator<T> model(
      c, test::matrix<T>(numbers(fixture().at("wordVectors")), c.source_words, c.source_width));
  test::set_parameters(model.parameters(), fixture().at("parameters"));
  model.zero_grad();
  return model;
}

attn::TranslationBatch fixture_batch() {
  attn::TranslationBatch batch;
  batch.sources = fixture().at("sources").get<std::vector<std::vector<int>>>();
  batch.targets = fixture().at("targets").get<std::vector<std::vector<int>>>();
  return batch;
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
      if (test::is_key_bias(p->name)) {
        const double difference = test::largest_difference(p->grad, expected);
        CHECK(difference <= tolerance * 1e-2);
        continue;
      }
      // Relative to the matrix's largest entry (normwise).
      const double error = test::worst_error(p->grad, expected, 1.0, 1e-300);
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

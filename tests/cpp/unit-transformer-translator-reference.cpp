// The whole Transformer translator against PyTorch's own modules (nn.Linear,
// nn.TransformerEncoderLayer and nn.TransformerDecoderLayer with norm_first=True and GELU in its
// tanh form, nn.LayerNorm, nn.Embedding tied to the output, F.cross_entropy with label smoothing;
// tools/make_transformer_translator_fixture.py): on a batch of two pairs with padding, the loss
// and every parameter's gradient, without and with label smoothing. The post-layer-norm model
// against the same with norm_first=False, stacked by nn.TransformerEncoder and
// nn.TransformerDecoder with no final norm.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "attn/transformer_translator.hpp"
#include "fixtures/transformer_translator.hpp"
#include "fixtures/transformer_translator_post_ln.hpp"
#include "reference_fixture.hpp"

namespace {

using test::json;
using test::numbers;

const json& pre_fixture() {
  static const json document = json::parse(test::fixtures::kTransformerTranslator);
  return document;
}

const json& post_fixture() {
  static const json document = json::parse(test::fixtures::kTransformerTranslatorPostLn);
  return document;
}

template <typename T>
attn::TransformerTranslator<T> fixture_model(const json& fixture) {
  const auto config = [&](const char* name) { return fixture.at("config").at(name).get<int>(); };
  attn::TransformerTranslatorConfig c;
  c.source_words = config("sourceWords");
  c.source_width = config("sourceWidth");
  c.target_words = config("targetWords");
  c.d_model = config("dModel");
  c.heads = config("heads");
  c.encoder_layers = config("encoderLayers");
  c.decoder_layers = config("decoderLayers");
  c.d_mlp = config("dMlp");
  c.norm_place = fixture.at("config").value("normPlace", "pre") == "post" ? attn::NormPlace::post
                                                                          : attn::NormPlace::pre;
  attn::TransformerTranslator<T> model(
      c, test::matrix<T>(numbers(fixture.at("wordVectors")), c.source_words, c.source_width));
  test::set_parameters(model.parameters(), fixture.at("parameters"));
  model.zero_grad();
  return model;
}

attn::TranslationBatch fixture_batch(const json& fixture) {
  attn::TranslationBatch batch;
  batch.sources = fixture.at("sources").get<std::vector<std::vector<int>>>();
  batch.targets = fixture.at("targets").get<std::vector<std::vector<int>>>();
  return batch;
}

// The loss and every gradient of the model in T against the fixture's cases. The fixture's
// gradients are rounded to 8 significant digits and its positions are float32 sinusoids, as the
// core's: in double the loss agrees to about 1e-16 and the gradients to about 5e-8 of each
// matrix's largest entry (the rounding); in float the model's own rounding (about 1e-7 a step,
// over a few dozen steps) makes it about 3e-6.
template <typename T>
void check_against_fixture(const json& fixture, double tolerance) {
  for (const json& c : fixture.at("cases")) {
    const double smoothing = c.at("labelSmoothing").get<double>();
    INFO("label smoothing " << smoothing);
    auto model = fixture_model<T>(fixture);
    const auto pass = model.forward(fixture_batch(fixture), 0, nullptr, smoothing);
    const double loss = c.at("loss").get<double>();
    CHECK(std::abs(static_cast<double>(pass.loss) - loss) <= tolerance * std::abs(loss));
    model.backward(pass);
    // Every parameter the fixture has, no more and no fewer.
    CHECK(model.parameters().size() == c.at("gradients").size());
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
      // Relative to the matrix's largest entry (normwise), or to 1e-3 when that is smaller: the
      // query biases' gradient is a sum over positions that nearly cancels (each head's softmax
      // gradient sums to 0 over its keys, leaving only the keys' spread), a few 1e-4 where its
      // terms are of the loss's scale, so float's rounding of the terms (an absolute 1e-9 or so)
      // would read as 1e-5 of it. Post-LN's decoder0.cross_attention.b_q is one such (largest
      // entry 3.5e-4).
      const double error = test::worst_error(p->grad, expected, 1.0, 1e-3);
      CHECK(error <= tolerance);
    }
  }
}

}  // namespace

TEST_CASE("transformer translator vs PyTorch: the loss and every gradient in double",
          "[transformer-translator-reference]") {
  check_against_fixture<double>(pre_fixture(), 1e-6);
}

TEST_CASE("transformer translator vs PyTorch: the loss and every gradient in float within 1e-5",
          "[transformer-translator-reference]") {
  check_against_fixture<float>(pre_fixture(), 1e-5);
}

TEST_CASE(
    "transformer translator vs PyTorch: post-layer-norm, the loss and every gradient in double",
    "[transformer-translator-reference]") {
  check_against_fixture<double>(post_fixture(), 1e-6);
}

TEST_CASE(
    "transformer translator vs PyTorch: post-layer-norm, the loss and every gradient in float "
    "within 1e-5",
    "[transformer-translator-reference]") {
  check_against_fixture<float>(post_fixture(), 1e-5);
}

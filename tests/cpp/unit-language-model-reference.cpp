// attn::LanguageModel against a model of the same architecture built from PyTorch's own modules
// (nn.LayerNorm, nn.MultiheadAttention, GELU tanh form, tied output; tools/make_lm_fixture.py):
// logits, every head's attention weights, the batch loss and its gradient for every parameter.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "attn/language_model.hpp"
#include "fixtures/language_model.hpp"
#include "reference_fixture.hpp"

namespace {

using test::json;
using test::numbers;

const json& fixture() {
  static const json document = json::parse(test::fixtures::kLanguageModel);
  return document;
}

attn::LanguageModelConfig config_of(const json& c) {
  attn::LanguageModelConfig config;
  config.vocab = c.at("vocab").get<int>();
  config.d_embed = c.at("dEmbed").get<int>();
  config.d_model = c.at("dModel").get<int>();
  config.layers = c.at("layers").get<int>();
  config.heads = c.at("heads").get<int>();
  config.d_mlp = c.at("dMlp").get<int>();
  config.context = c.at("context").get<int>();
  return config;
}

// The fixture's model: its word vectors, and every parameter set by name (each must be there,
// with the shape the core gives it).
template <typename T>
attn::LanguageModel<T> reference_model() {
  const json& f = fixture();
  const attn::LanguageModelConfig config = config_of(f.at("config"));
  attn::LanguageModel<T> model(
      config, test::matrix<T>(numbers(f.at("wordVectors")), config.vocab, config.d_embed));
  test::set_parameters(model.parameters(), f.at("parameters"));
  return model;
}

std::vector<std::vector<int>> field(const char* name) {
  std::vector<std::vector<int>> out;
  for (const json& s : fixture().at("sequences")) out.push_back(s.at(name).get<std::vector<int>>());
  return out;
}

// Every comparison of one scalar type, with its tolerance.
template <typename T>
void check_against_pytorch(double tolerance, double floor_share) {
  auto model = reference_model<T>();
  const json& f = fixture();
  const int layers = model.config().layers, heads = model.config().heads;
  const auto inputs = field("tokens"), targets = field("targets");
  // 1. Every position's logits and every layer's and head's attention weights.
  for (size_t s = 0; s < inputs.size(); ++s) {
    const json& expected = f.at("sequences").at(s);
    const auto pass = model.forward(inputs[s]);
    const double logits =
        test::worst_error(pass.logits, numbers(expected.at("logits")), floor_share);
    INFO("sequence " << s << ": logits within " << logits);
    CHECK(logits < tolerance);
    for (int l = 0; l < layers; ++l) {
      for (int h = 0; h < heads; ++h) {
        const double w = test::worst_error(
            pass.attention_weights(l, h),
            numbers(expected.at("attention").at(static_cast<size_t>(l)).at(static_cast<size_t>(h))),
            floor_share);
        INFO("layer " << l << ", head " << h << ": weights within " << w);
        CHECK(w < tolerance);
      }
    }
  }
  // 2. The batch loss (mean over counted targets, one ignored) and every parameter's gradient.
  model.zero_grad();
  const double loss = model.loss_and_backward(inputs, targets);
  const double expected_loss = f.at("loss").get<double>();
  CHECK(std::abs(loss - expected_loss) < tolerance * expected_loss);
  for (attn::Parameter<T>* p : model.parameters()) {
    const std::vector<double> expected = numbers(f.at("gradients").at(p->name));
    if (test::is_key_bias(p->name)) {
      test::check_key_bias_gradient(*p, expected, tolerance);
      continue;
    }
    const double g = test::worst_error(p->grad, expected, floor_share);
    INFO("dL/d" << p->name << " within " << g);
    CHECK(g < tolerance);
  }
}

}  // namespace

TEST_CASE("language model in double matches PyTorch within 1e-7 relative, entry by entry",
          "[language-model-reference]") {
  // Logits, attention weights, loss and gradients. The fixture stores 8 significant digits
  // (relative rounding 5e-9) of a float64 computation; entries below a hundredth of their
  // matrix's largest are compared absolutely at that scale.
  check_against_pytorch<double>(1e-7, 1e-2);
}

TEST_CASE("language model in float matches PyTorch within 1e-5 of each matrix's largest entry",
          "[language-model-reference]") {
  // float32 rounds at 6e-8 relative per operation, and logits and gradients are sums of terms
  // larger than themselves: entry by entry, small ones are off by up to 3e-5 of their own size,
  // so the float model is held to each matrix's scale (normwise) instead.
  check_against_pytorch<float>(1e-5, 1.0);
}

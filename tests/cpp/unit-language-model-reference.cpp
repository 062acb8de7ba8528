// attn::LanguageModel against a model of the same architecture built from PyTorch's own modules
// (nn.LayerNorm, nn.MultiheadAttention, GELU tanh form, tied output; tools/make_lm_fixture.py):
// logits, every head's attention weights, the batch loss and its gradient for every parameter.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "attn/language_model.hpp"
#include "fixtures/language_model.hpp"
#include "json.hpp"

namespace {

using test::json::Value;

const Value& fixture() {
  static const Value document = test::json::parse(test::fixtures::kLanguageModel);
  return document;
}

attn::LanguageModelConfig config_of(const Value& c) {
  attn::LanguageModelConfig config;
  config.vocab = c["vocab"].as_int();
  config.d_embed = c["dEmbed"].as_int();
  config.d_model = c["dModel"].as_int();
  config.layers = c["layers"].as_int();
  config.heads = c["heads"].as_int();
  config.d_mlp = c["dMlp"].as_int();
  config.context = c["context"].as_int();
  return config;
}

template <typename T>
attn::MatrixT<T> matrix(const std::vector<double>& values, Eigen::Index rows, Eigen::Index cols) {
  REQUIRE(static_cast<Eigen::Index>(values.size()) == rows * cols);
  attn::MatrixT<T> m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<T>(values[i]);
  return m;
}

// The fixture's model: its word vectors, and every parameter set by name (each must be there,
// with the shape the core gives it).
template <typename T>
attn::LanguageModel<T> reference_model() {
  const Value& f = fixture();
  const attn::LanguageModelConfig config = config_of(f["config"]);
  attn::LanguageModel<T> model(config,
                               matrix<T>(f["wordVectors"].numbers(), config.vocab, config.d_embed));
  const Value& parameters = f["parameters"];
  const auto own = model.parameters();
  REQUIRE(own.size() == parameters.size());
  for (attn::Parameter<T>* p : own) {
    INFO(p->name);
    const Value& stored = parameters[p->name];
    REQUIRE(stored["shape"][0].as_int() == p->value.rows());
    REQUIRE(stored["shape"][1].as_int() == p->value.cols());
    p->value = matrix<T>(stored["value"].numbers(), p->value.rows(), p->value.cols());
  }
  return model;
}

// Largest |a - b| / max(|b|, floor) with floor = floor_share * max |b|: with a share of 1e-2,
// relative entry by entry down to a hundredth of the largest entry (below that, absolute); with a
// share of 1, relative to the largest entry of the matrix (normwise).
template <typename T>
double worst_error(const attn::MatrixT<T>& actual, const std::vector<double>& expected,
                   double floor_share) {
  REQUIRE(static_cast<Eigen::Index>(expected.size()) == actual.size());
  double top = 0;
  for (const double e : expected) top = std::max(top, std::abs(e));
  const double floor = std::max(floor_share * top, 1e-12);
  double worst = 0;
  for (Eigen::Index i = 0; i < actual.size(); ++i) {
    const double a = actual.data()[i], e = expected[static_cast<size_t>(i)];
    worst = std::max(worst, std::abs(a - e) / std::max(std::abs(e), floor));
  }
  return worst;
}

std::vector<std::vector<int>> field(const char* name) {
  std::vector<std::vector<int>> out;
  for (const Value& s : fixture()["sequences"].array) out.push_back(s[name].ints());
  return out;
}

// Every comparison of one scalar type, with its tolerance.
template <typename T>
void check_against_pytorch(double tolerance, double floor_share) {
  auto model = reference_model<T>();
  const Value& f = fixture();
  const int layers = model.config().layers, heads = model.config().heads;
  const auto inputs = field("tokens"), targets = field("targets");
  // 1. Every position's logits and every layer's and head's attention weights.
  for (size_t s = 0; s < inputs.size(); ++s) {
    const Value& expected = f["sequences"][s];
    const auto pass = model.forward(inputs[s]);
    const double logits = worst_error(pass.logits, expected["logits"].numbers(), floor_share);
    INFO("sequence " << s << ": logits within " << logits);
    CHECK(logits < tolerance);
    for (int l = 0; l < layers; ++l) {
      for (int h = 0; h < heads; ++h) {
        const double w = worst_error(
            pass.attention_weights(l, h),
            expected["attention"][static_cast<size_t>(l)][static_cast<size_t>(h)].numbers(),
            floor_share);
        INFO("layer " << l << ", head " << h << ": weights within " << w);
        CHECK(w < tolerance);
      }
    }
  }
  // 2. The batch loss (mean over counted targets, one ignored) and every parameter's gradient.
  model.zero_grad();
  const double loss = model.loss_and_backward(inputs, targets);
  const double expected_loss = f["loss"].number;
  CHECK(std::abs(loss - expected_loss) < tolerance * expected_loss);
  for (attn::Parameter<T>* p : model.parameters()) {
    const std::vector<double> expected = f["gradients"][p->name].numbers();
    if (p->name.size() > 3 && p->name.compare(p->name.size() - 3, 3, "b_k") == 0) {
      // The key bias shifts every score of a query by the same q . b_k, which softmax ignores:
      // its gradient is 0, and both sides hold only rounding noise.
      double top = 0;
      for (const double e : expected) top = std::max(top, std::abs(e));
      INFO("dL/d" << p->name << ": PyTorch's largest " << top << ", ours "
                  << p->grad.cwiseAbs().maxCoeff());
      CHECK(top < 1e-12);
      CHECK(p->grad.cwiseAbs().maxCoeff() < tolerance);
      continue;
    }
    const double g = worst_error(p->grad, expected, floor_share);
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

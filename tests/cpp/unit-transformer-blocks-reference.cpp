// The encoder block and the decoder block with cross-attention against PyTorch's own
// nn.TransformerEncoderLayer and nn.TransformerDecoderLayer (norm_first=True, GELU tanh form,
// dropout 0; tools/make_transformer_fixture.py), on a batch of two sentences with key padding:
// outputs, every head's attention weights, and the gradients of sum(y * r) for the inputs and
// every parameter.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "attn/cross_decoder_block.hpp"
#include "attn/encoder_block.hpp"
#include "fixtures/transformer_blocks.hpp"
#include "reference_fixture.hpp"

namespace {

using test::json;
using test::numbers;

const json& fixture() {
  static const json document = json::parse(test::fixtures::kTransformerBlocks);
  return document;
}

int config(const char* name) { return fixture().at("config").at(name).get<int>(); }

// A flat row-major list of d_model-wide rows: (size / d_model, d_model).
template <typename T>
attn::MatrixT<T> rows_of(const json& array) {
  const std::vector<double> values = numbers(array);
  const Eigen::Index d = config("dModel");
  REQUIRE(static_cast<Eigen::Index>(values.size()) % d == 0);
  attn::MatrixT<T> m(static_cast<Eigen::Index>(values.size()) / d, d);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<T>(values[i]);
  return m;
}

attn::KeyPadding padding_of(const json& sentence) {
  return sentence.at("padding").get<attn::KeyPadding>();
}

// Every parameter set by name from the fixture, its gradient zeroed.
template <typename T>
void set_parameters(const std::vector<attn::Parameter<T>*>& own, const json& stored) {
  test::set_parameters(own, stored);
  for (attn::Parameter<T>* p : own) p->zero_grad();
}

// Compares one matrix, naming it, within the tolerance; in double also absolutely within 1e-5 (in
// float, an entry of a gradient of size 20 rounds by more than that).
template <typename T>
void check_matrix(const std::string& name, const attn::MatrixT<T>& actual, const json& expected,
                  double tolerance, double floor_share) {
  const std::vector<double> e = numbers(expected);
  const double relative = test::worst_error(actual, e, floor_share);
  const double absolute = test::largest_difference(actual, e);
  INFO(name << ": within " << relative << " relative, " << absolute << " absolute");
  CHECK(relative < tolerance);
  if constexpr (std::is_same_v<T, double>) CHECK(absolute < 1e-5);
}

// The parameters' gradients over the batch (the key biases' as test::check_key_bias_gradient).
template <typename T>
void check_gradients(const std::vector<attn::Parameter<T>*>& own, const json& expected,
                     double tolerance, double floor_share) {
  for (attn::Parameter<T>* p : own) {
    const json& e = expected.at(p->name);
    if (test::is_key_bias(p->name)) {
      test::check_key_bias_gradient(*p, numbers(e), tolerance);
      continue;
    }
    check_matrix("dL/d" + p->name, p->grad, e, tolerance, floor_share);
  }
}

// Sets w's parameters from the fixture's `side` ("encoder" or "decoder"), runs
// check_sentence(sentence) on each of its sentences, and then checks the parameters' gradients,
// which the sentences' backward passes add up.
template <typename Weights, typename CheckSentence>
void check_block(const char* side, Weights& w, CheckSentence check_sentence, double tolerance,
                 double floor_share) {
  const json& f = fixture().at(side);
  set_parameters(w.parameters(), f.at("parameters"));
  const json& sentences = f.at("sentences");
  for (size_t s = 0; s < sentences.size(); ++s) {
    INFO("sentence " << s);
    check_sentence(sentences.at(s));
  }
  check_gradients(w.parameters(), f.at("gradients"), tolerance, floor_share);
}

template <typename T>
void check_encoder_block(double tolerance, double floor_share) {
  const int heads = config("heads");
  auto w =
      attn::encoder_block_weights<T>(config("dModel"), heads, config("dMlp"), 1, 1.0, "encoder");
  const auto check_sentence = [&](const json& e) {
    const auto pass = attn::encoder_block_forward(rows_of<T>(e.at("x")), w, padding_of(e));
    check_matrix("y", pass.y(), e.at("y"), tolerance, floor_share);
    for (int j = 0; j < heads; ++j) {
      check_matrix("head " + std::to_string(j) + "'s weights", pass.weights(j),
                   e.at("attention").at(static_cast<size_t>(j)), tolerance, floor_share);
    }
    const attn::MatrixT<T> dx = attn::encoder_block_backward(pass, rows_of<T>(e.at("r")), w);
    check_matrix("dL/dx", dx, e.at("dx"), tolerance, floor_share);
  };
  check_block("encoder", w, check_sentence, tolerance, floor_share);
}

template <typename T>
void check_cross_decoder_block(double tolerance, double floor_share) {
  const int heads = config("heads");
  auto w = attn::cross_decoder_block_weights<T>(config("dModel"), heads, config("dMlp"), 1, 1.0,
                                                "decoder");
  const auto check_sentence = [&](const json& e) {
    const auto pass = attn::cross_decoder_block_forward(
        rows_of<T>(e.at("x")), rows_of<T>(e.at("memory")), w, padding_of(e));
    check_matrix("y", pass.y(), e.at("y"), tolerance, floor_share);
    for (int j = 0; j < heads; ++j) {
      const size_t head = static_cast<size_t>(j);
      check_matrix("self-attention head " + std::to_string(j),
                   pass.self_attention.attention.weights(j), e.at("selfAttention").at(head),
                   tolerance, floor_share);
      check_matrix("cross-attention head " + std::to_string(j), pass.cross_weights(j),
                   e.at("crossAttention").at(head), tolerance, floor_share);
    }
    const auto g = attn::cross_decoder_block_backward(pass, rows_of<T>(e.at("r")), w);
    check_matrix("dL/dx", g.dx, e.at("dx"), tolerance, floor_share);
    check_matrix("dL/d(memory)", g.d_encoder_output, e.at("dMemory"), tolerance, floor_share);
  };
  check_block("decoder", w, check_sentence, tolerance, floor_share);
}

}  // namespace

// In double: the fixture stores 8 significant digits (relative rounding at most 5e-8) of a float64
// computation; entries below a hundredth of their matrix's largest are compared absolutely at that
// scale. In float: float32 rounds at 6e-8 relative per operation, and gradients are sums of terms
// larger than themselves, so the float blocks are held to each matrix's scale (normwise).

TEST_CASE("encoder block in double matches PyTorch within 1e-7 relative, entry by entry",
          "[transformer-blocks-reference]") {
  check_encoder_block<double>(1e-7, 1e-2);
}

TEST_CASE("encoder block in float matches PyTorch within 1e-5 of each matrix's largest entry",
          "[transformer-blocks-reference]") {
  check_encoder_block<float>(1e-5, 1.0);
}

TEST_CASE("decoder block with cross-attention in double matches PyTorch within 1e-7 relative",
          "[transformer-blocks-reference]") {
  check_cross_decoder_block<double>(1e-7, 1e-2);
}

TEST_CASE("decoder block with cross-attention in float matches PyTorch within 1e-5 normwise",
          "[transformer-blocks-reference]") {
  check_cross_decoder_block<float>(1e-5, 1.0);
}

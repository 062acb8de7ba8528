#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "attn/attention.hpp"
#include "attn/attention_grad.hpp"
#include "helpers.hpp"

using attn::AttentionOptions;
using attn::Matrix;

namespace {

using Exact = attn::MatrixT<double>;

// The formula softmax(mask(Q K^T s) / T) V, written out in double precision with the standard
// library's exp: a reference that shares no code with the core's attention.
attn::AttentionTrace exact_attention(const Matrix& q, const Matrix& k, const Matrix& v,
                                     const AttentionOptions& options, Exact* exact_weights) {
  const Exact scores = q.cast<double>() * k.cast<double>().transpose();
  const double scale = options.scale ? 1.0 / std::sqrt(static_cast<double>(q.cols())) : 1.0;
  const Exact scaled = scores * scale;
  Exact masked = scaled;
  Exact weights(masked.rows(), masked.cols());
  for (Eigen::Index i = 0; i < masked.rows(); ++i) {
    for (Eigen::Index j = 0; j < masked.cols(); ++j) {
      const bool padded = !options.key_padding.empty() && options.key_padding[j] != 0;
      if ((options.causal && j > i) || padded) {
        masked(i, j) = -std::numeric_limits<double>::infinity();
      }
    }
    const double top = masked.row(i).maxCoeff();
    for (Eigen::Index j = 0; j < masked.cols(); ++j) {
      weights(i, j) = std::exp((masked(i, j) - top) / options.temperature);
    }
    weights.row(i) /= weights.row(i).sum();
  }
  *exact_weights = weights;
  return {scores.cast<float>(), scaled.cast<float>(), masked.cast<float>(), weights.cast<float>(),
          (weights * v.cast<double>()).cast<float>()};
}

// The core's attention must reproduce the exact trace within 1e-5, and give exact zeros where
// the exact weights are zero.
void check_agreement(const Matrix& q, const Matrix& k, const Matrix& v,
                     const AttentionOptions& options) {
  Exact exact_weights;
  const auto reference = exact_attention(q, k, v, options, &exact_weights);
  const auto fast = attn::scaled_dot_product_attention(q, k, v, options);
  const float scores_scale = 1.0f + reference.scores.cwiseAbs().maxCoeff();
  CHECK(test::max_difference(reference.scores, fast.scores) <= 1e-5f * scores_scale);
  CHECK(test::max_difference(reference.scaled, fast.scaled) <= 1e-5f * scores_scale);
  CHECK(test::max_difference(reference.masked, fast.masked) <= 1e-5f * scores_scale);
  CHECK(test::max_difference(reference.weights, fast.weights) <= 1e-5f);
  CHECK(test::max_difference(reference.output, fast.output) <= 1e-5f);
  for (Eigen::Index i = 0; i < fast.weights.size(); ++i) {
    if (exact_weights.data()[i] == 0.0) CHECK(fast.weights.data()[i] == 0.0f);
  }
}

}  // namespace

TEST_CASE("the page's attention agrees with the exact formula on every shape", "[kernel]") {
  // Sizes around the 4x8 blocking, so that every leftover loop runs.
  for (int n_q : {1, 3, 4, 5, 9, 16}) {
    for (int n_k : {1, 7, 8, 13, 32}) {
      for (int d : {1, 3, 4, 8, 17}) {
        INFO("n_q=" << n_q << " n_k=" << n_k << " d=" << d);
        check_agreement(test::random(n_q, d, 1), test::random(n_k, d, 2),
                        test::random(n_k, d + 2, 3), {});
      }
    }
  }
}

TEST_CASE("the page's attention agrees under masks, temperature and no scaling", "[kernel]") {
  const Matrix x = test::random(11, 6, 4), v = test::random(11, 5, 5);
  AttentionOptions options;
  options.causal = true;
  check_agreement(x, x, v, options);
  options.key_padding = {0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 0};
  check_agreement(x, x, v, options);
  options.causal = false;
  options.scale = false;
  options.temperature = 0.3f;
  check_agreement(x, x, v, options);
  options.temperature = 7.0f;
  check_agreement(test::random(3, 6, 6), x, v, options);
}

TEST_CASE("the page's attention gives exact ones and zeros where the formula does", "[kernel]") {
  const Matrix x = test::random(64, 16, 7);
  AttentionOptions options;
  options.causal = true;
  const auto fast = attn::scaled_dot_product_attention(x, x, x, options);
  CHECK(fast.weights(0, 0) == 1.0f);
  for (int i = 0; i < 64; ++i) {
    for (int j = i + 1; j < 64; ++j) REQUIRE(fast.weights(i, j) == 0.0f);
  }
}

TEST_CASE("the page's attention survives extreme logits", "[kernel]") {
  Matrix q(2, 1), k(3, 1);
  q << 100, -100;
  k << 100, -100, 99;
  const Matrix v = test::random(3, 2, 8);
  AttentionOptions options;
  options.scale = false;  // scores of +-1e4
  const auto fast = attn::scaled_dot_product_attention(q, k, v, options);
  CHECK(fast.weights.allFinite());
  CHECK(fast.output.allFinite());
  CHECK(fast.weights.row(0).sum() == Approx(1.0f));
  CHECK(fast.weights(0, 0) == 1.0f);
  CHECK(fast.weights(1, 1) == 1.0f);
}

TEST_CASE("the page's attention rejects bad input before writing", "[kernel]") {
  const Matrix q = test::random(2, 3, 1), k = test::random(4, 3, 2);
  CHECK_THROWS_WITH(attn::scaled_dot_product_attention(q, k, test::random(3, 3, 3)),
                    Catch::Contains("v is 3x3"));
  AttentionOptions options;
  options.causal = true;
  CHECK_THROWS_WITH(attn::scaled_dot_product_attention(q, k, test::random(4, 3, 3), options),
                    Catch::Contains("causal"));
}

TEST_CASE("the page's attention without the trace writes the same weights and output", "[kernel]") {
  const Matrix q = test::random(13, 9, 11), k = test::random(13, 9, 12),
               v = test::random(13, 10, 13);
  AttentionOptions options;
  for (int variant = 0; variant < 3; ++variant) {
    INFO("variant " << variant);
    if (variant == 1) options.causal = true;
    if (variant == 2) options.key_padding = {0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1};
    const auto traced = attn::scaled_dot_product_attention(q, k, v, options);
    Matrix weights(13, 13), output(13, 10);
    std::vector<float> scratch(attn::attention_scratch_size({13, 13, 9, 10}));
    const attn::AttentionBuffers lean{q.data(),       k.data(),      v.data(),
                                      nullptr,        nullptr,       nullptr,
                                      weights.data(), output.data(), scratch.data()};
    attn::attention_kernel(lean, {13, 13, 9, 10}, options);
    CHECK(weights == traced.weights);
    CHECK(output == traced.output);
  }
}

TEST_CASE("the page's attention has the bits of the trainable attention", "[kernel]") {
  // One dot-product attention serves both: the page shows what training computes.
  const Matrix q = test::random(13, 9, 21), k = test::random(17, 9, 22),
               v = test::random(17, 6, 23);
  for (int variant = 0; variant < 3; ++variant) {
    INFO("variant " << variant);
    AttentionOptions page;
    attn::AttentionGradOptions trainable;
    trainable.scoring = attn::Scoring::scaled_dot;
    if (variant == 1) {
      page.scale = false;
      trainable.scoring = attn::Scoring::dot;
    }
    if (variant == 2) page.key_padding = trainable.key_padding = attn::KeyPadding(17, 0);
    if (variant == 2) page.key_padding[3] = trainable.key_padding[3] = 1;
    const auto shown = attn::scaled_dot_product_attention(q, k, v, page);
    const auto trained = attn::attention_forward<float>(q, k, v, trainable, nullptr);
    CHECK(shown.masked == trained.scores);
    CHECK(shown.weights == trained.weights);
    CHECK(shown.output == trained.output);
  }
  // The causal mask too, where the page needs n_q == n_k.
  const Matrix x = test::random(11, 8, 24);
  AttentionOptions page;
  page.causal = true;
  attn::AttentionGradOptions trainable;
  trainable.causal = true;
  const auto shown = attn::scaled_dot_product_attention(x, x, x, page);
  const auto trained = attn::attention_forward<float>(x, x, x, trainable, nullptr);
  CHECK(shown.weights == trained.weights);
  CHECK(shown.output == trained.output);
}

#include <catch2/catch.hpp>

#include "attn/multi_head.hpp"
#include "helpers.hpp"

using attn::Matrix;
using attn::MultiHeadWeights;

namespace {

MultiHeadWeights seeded_weights(int d, bool biases) {
  MultiHeadWeights w;
  w.w_q = attn::glorot_uniform(d, d, 1);
  w.w_k = attn::glorot_uniform(d, d, 2);
  w.w_v = attn::glorot_uniform(d, d, 3);
  w.w_o = attn::glorot_uniform(d, d, 4);
  if (biases) {
    w.b_q = test::random(d, 1, 5).col(0);
    w.b_k = test::random(d, 1, 6).col(0);
    w.b_v = test::random(d, 1, 7).col(0);
    w.b_o = test::random(d, 1, 8).col(0);
  }
  return w;
}

}  // namespace

TEST_CASE("each head attends in its own slice of the projections", "[multi-head]") {
  const int d = 8, heads = 2, d_k = 4;
  const Matrix x_q = test::random(3, d, 10), x_kv = test::random(5, d, 11);
  const MultiHeadWeights w = seeded_weights(d, true);
  const auto trace = attn::multi_head_attention(x_q, x_kv, heads, w);
  REQUIRE(trace.heads.size() == 2);
  const Matrix q = (x_q * w.w_q).rowwise() + w.b_q.transpose();
  const Matrix k = (x_kv * w.w_k).rowwise() + w.b_k.transpose();
  const Matrix v = (x_kv * w.w_v).rowwise() + w.b_v.transpose();
  Matrix concatenated(3, d);
  for (int h = 0; h < heads; ++h) {
    const auto single = attn::scaled_dot_product_attention(
        q.middleCols(h * d_k, d_k), k.middleCols(h * d_k, d_k), v.middleCols(h * d_k, d_k));
    CHECK(trace.heads[h].weights.isApprox(single.weights, 1e-6f));
    CHECK(trace.heads[h].output.isApprox(single.output, 1e-6f));
    concatenated.middleCols(h * d_k, d_k) = single.output;
  }
  const Matrix expected = (concatenated * w.w_o).rowwise() + w.b_o.transpose();
  CHECK(trace.output.isApprox(expected, 1e-5f));
}

TEST_CASE("one head over the whole width is plain attention", "[multi-head]") {
  const int d = 6;
  const Matrix x = test::random(4, d, 12);
  MultiHeadWeights identity;
  identity.w_q = identity.w_k = identity.w_v = identity.w_o = Matrix::Identity(d, d);
  const auto trace = attn::multi_head_attention(x, x, 1, identity);
  CHECK(trace.output.isApprox(attn::scaled_dot_product_attention(x, x, x).output, 1e-6f));
}

TEST_CASE("multi-head self-attention is permutation-equivariant", "[multi-head]") {
  const Matrix x = test::random(5, 8, 13);
  Eigen::PermutationMatrix<Eigen::Dynamic> p(5);
  p.indices() << 4, 2, 0, 3, 1;
  const Matrix shuffled = p * x;
  const MultiHeadWeights w = seeded_weights(8, true);
  const auto original = attn::multi_head_attention(x, x, 4, w);
  const auto permuted = attn::multi_head_attention(shuffled, shuffled, 4, w);
  CHECK(permuted.output.isApprox(p * original.output, 1e-5f));
}

TEST_CASE("multi-head masks apply to every head", "[multi-head]") {
  const Matrix x = test::random(4, 8, 14);
  attn::MultiHeadOptions options;
  options.causal = true;
  options.key_padding = {0, 0, 1, 0};
  const auto trace = attn::multi_head_attention(x, x, 2, seeded_weights(8, false), options);
  for (const auto& head : trace.heads) {
    for (int i = 0; i < 4; ++i) {
      CHECK(head.weights(i, 2) == 0.0f);
      for (int j = i + 1; j < 4; ++j) CHECK(head.weights(i, j) == 0.0f);
    }
  }
}

TEST_CASE("multi-head attention rejects bad configurations", "[multi-head]") {
  const Matrix x = test::random(3, 6, 15);
  const MultiHeadWeights w = seeded_weights(6, false);
  CHECK_THROWS_WITH(attn::multi_head_attention(x, x, 4, w),
                    Catch::Contains("heads = 4 must be a positive divisor of d_model = 6"));
  CHECK_THROWS_WITH(attn::multi_head_attention(x, x, 0, w), Catch::Contains("heads = 0"));
  CHECK_THROWS_WITH(attn::multi_head_attention(x, test::random(3, 5, 1), 2, w),
                    Catch::Contains("x_kv is 3x5"));
  MultiHeadWeights wrong = w;
  wrong.w_o = test::random(6, 5, 2);
  CHECK_THROWS_WITH(attn::multi_head_attention(x, x, 2, wrong), Catch::Contains("w_o is 6x5"));
  wrong = w;
  wrong.b_k = test::random(4, 1, 3).col(0);
  CHECK_THROWS_WITH(attn::multi_head_attention(x, x, 2, wrong), Catch::Contains("b_k has 4"));
}

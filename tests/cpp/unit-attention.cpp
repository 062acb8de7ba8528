#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "attn/attention.hpp"
#include "helpers.hpp"

using attn::AttentionOptions;
using attn::Matrix;

TEST_CASE("attention keeps every intermediate of the formula", "[attention]") {
  const Matrix q = test::random(3, 4, 1), k = test::random(5, 4, 2), v = test::random(5, 2, 3);
  const auto trace = attn::scaled_dot_product_attention(q, k, v);
  CHECK(trace.scores.rows() == 3);
  CHECK(trace.scores.cols() == 5);
  CHECK(trace.output.rows() == 3);
  CHECK(trace.output.cols() == 2);
  CHECK(trace.scores.isApprox(q * k.transpose()));
  CHECK(trace.scaled.isApprox(trace.scores / 2.0f));  // sqrt(d_k) = 2
  CHECK(trace.masked == trace.scaled);
  CHECK(trace.output.isApprox(trace.weights * v));
  for (int i = 0; i < 3; ++i) CHECK(trace.weights.row(i).sum() == Approx(1.0f).margin(1e-6));
}

TEST_CASE("attention without scaling uses the raw scores", "[attention]") {
  const Matrix q = test::random(2, 9, 4), k = test::random(2, 9, 5), v = test::random(2, 3, 6);
  AttentionOptions options;
  options.scale = false;
  const auto trace = attn::scaled_dot_product_attention(q, k, v, options);
  CHECK(trace.scaled == trace.scores);
}

TEST_CASE("a causal mask hides every later key exactly", "[attention]") {
  const Matrix x = test::random(4, 3, 7);
  AttentionOptions options;
  options.causal = true;
  const auto trace = attn::scaled_dot_product_attention(x, x, x, options);
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      if (j > i) {
        CHECK(trace.weights(i, j) == 0.0f);
        CHECK(trace.masked(i, j) == -std::numeric_limits<float>::infinity());
      } else {
        CHECK(trace.weights(i, j) > 0.0f);
      }
    }
  }
  CHECK(trace.weights(0, 0) == 1.0f);  // the first token sees only itself
}

TEST_CASE("key padding removes keys from every query", "[attention]") {
  const Matrix q = test::random(2, 3, 8), k = test::random(3, 3, 9), v = test::random(3, 3, 10);
  AttentionOptions options;
  options.key_padding = {0, 1, 0};
  const auto trace = attn::scaled_dot_product_attention(q, k, v, options);
  CHECK(trace.weights(0, 1) == 0.0f);
  CHECK(trace.weights(1, 1) == 0.0f);
  // The same as attention over the two unpadded keys alone.
  Matrix k2(2, 3), v2(2, 3);
  k2 << k.row(0), k.row(2);
  v2 << v.row(0), v.row(2);
  const auto reduced = attn::scaled_dot_product_attention(q, k2, v2);
  CHECK(trace.output.isApprox(reduced.output, 1e-5f));
}

TEST_CASE("permuting self-attention's tokens permutes its outputs", "[attention]") {
  const Matrix x = test::random(5, 4, 11);
  Eigen::PermutationMatrix<Eigen::Dynamic> p(5);
  p.indices() << 3, 0, 4, 1, 2;
  const Matrix shuffled = p * x;
  const auto original = attn::scaled_dot_product_attention(x, x, x);
  const auto permuted = attn::scaled_dot_product_attention(shuffled, shuffled, shuffled);
  CHECK(permuted.output.isApprox(p * original.output, 1e-5f));
}

TEST_CASE("attention rejects inputs that do not fit, naming them", "[attention]") {
  const Matrix q = test::random(2, 3, 1), k = test::random(4, 3, 2), v = test::random(4, 2, 3);
  CHECK_THROWS_WITH(attn::scaled_dot_product_attention(q, test::random(4, 5, 4), v),
                    Catch::Contains("q is 2x3 and k is 4x5"));
  CHECK_THROWS_WITH(attn::scaled_dot_product_attention(q, k, test::random(3, 2, 5)),
                    Catch::Contains("v is 3x2"));
  CHECK_THROWS_WITH(attn::scaled_dot_product_attention(Matrix(0, 3), k, v),
                    Catch::Contains("q is empty"));
  AttentionOptions causal;
  causal.causal = true;
  CHECK_THROWS_WITH(attn::scaled_dot_product_attention(q, k, v, causal),
                    Catch::Contains("causal mask needs as many queries as keys"));
  AttentionOptions short_padding;
  short_padding.key_padding = {0, 1};
  CHECK_THROWS_WITH(attn::scaled_dot_product_attention(q, k, v, short_padding),
                    Catch::Contains("key_padding has 2 flags but there are 4 keys"));
  AttentionOptions all_padded;
  all_padded.key_padding = {1, 1, 1, 1};
  CHECK_THROWS_WITH(attn::scaled_dot_product_attention(q, k, v, all_padded),
                    Catch::Contains("all 4 keys"));
  Matrix bad = q;
  bad(1, 1) = std::numeric_limits<float>::infinity();
  CHECK_THROWS_WITH(attn::scaled_dot_product_attention(bad, k, v), Catch::Contains("q contains"));
}

TEST_CASE("causal attention with leading padding leaves the first query blind", "[attention]") {
  const Matrix x = test::random(3, 2, 12);
  AttentionOptions options;
  options.causal = true;
  options.key_padding = {1, 0, 0};
  CHECK_THROWS_WITH(attn::scaled_dot_product_attention(x, x, x, options),
                    Catch::Contains("query 0 has no visible key"));
}

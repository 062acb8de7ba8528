#include <catch2/catch.hpp>
#include <cmath>

#include "attn/scoring.hpp"
#include "helpers.hpp"

using attn::Matrix;
using attn::Vector;

namespace {

Vector vec(int n, std::uint64_t seed) { return test::random(n, 1, seed).col(0); }

void check_weights_and_context(const attn::ScoreResult& r, const Matrix& h) {
  CHECK(r.weights.sum() == Approx(1.0f).margin(1e-6));
  CHECK((r.weights.array() > 0).all());
  CHECK(r.context.isApprox(h.transpose() * r.weights, 1e-5f));
}

}  // namespace

TEST_CASE("dot scoring ranks encoder states by their dot product", "[scoring]") {
  Vector s(2);
  s << 1, 0;
  Matrix h(3, 2);
  h << 2, 0, 0, 5, -1, 1;
  const auto r = attn::dot_score(s, h);
  CHECK(r.scores(0) == 2.0f);
  CHECK(r.scores(1) == 0.0f);
  CHECK(r.scores(2) == -1.0f);
  check_weights_and_context(r, h);
  CHECK(r.weights(0) > r.weights(1));
}

TEST_CASE("general scoring with the identity is dot scoring", "[scoring]") {
  const Vector s = vec(4, 1);
  const Matrix h = test::random(6, 4, 2);
  const auto general = attn::general_score(s, h, Matrix::Identity(4, 4));
  CHECK(general.scores.isApprox(attn::dot_score(s, h).scores, 1e-5f));
  // And s . (W h_j) for a general W, entry by entry.
  const Matrix w = test::random(4, 4, 3);
  const auto r = attn::general_score(s, h, w);
  for (int j = 0; j < 6; ++j) {
    CHECK(r.scores(j) == Approx(s.dot(w * h.row(j).transpose())).epsilon(1e-5));
  }
  check_weights_and_context(r, h);
}

TEST_CASE("additive scoring follows v . tanh(W_s s + W_h h_j)", "[scoring]") {
  const Vector s = vec(3, 4), v = vec(5, 5);
  const Matrix h = test::random(4, 2, 6), w_s = test::random(5, 3, 7), w_h = test::random(5, 2, 8);
  const auto r = attn::additive_score(s, h, w_s, w_h, v);
  for (int j = 0; j < 4; ++j) {
    const Vector hidden = (w_s * s + w_h * h.row(j).transpose()).array().tanh();
    CHECK(r.scores(j) == Approx(v.dot(hidden)).epsilon(1e-5));
  }
  check_weights_and_context(r, h);
}

TEST_CASE("scoring rejects shapes that do not fit, naming them", "[scoring]") {
  const Matrix h = test::random(4, 3, 1);
  CHECK_THROWS_WITH(attn::dot_score(vec(2, 1), h), Catch::Contains("d_s == d_h"));
  CHECK_THROWS_WITH(attn::general_score(vec(2, 1), h, test::random(3, 3, 2)),
                    Catch::Contains("w is 3x3 but must be 2x3"));
  CHECK_THROWS_WITH(
      attn::additive_score(vec(2, 1), h, test::random(5, 2, 2), test::random(5, 4, 3), vec(5, 4)),
      Catch::Contains("w_h is 5x4 but must be 5x3"));
  CHECK_THROWS_WITH(attn::dot_score(vec(3, 1), Matrix(0, 3)), Catch::Contains("h is empty"));
  Vector bad = vec(3, 1);
  bad(0) = std::nanf("");
  CHECK_THROWS_WITH(attn::dot_score(bad, h), Catch::Contains("s contains NaN"));
}

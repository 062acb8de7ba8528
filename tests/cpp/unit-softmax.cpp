#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "attn/softmax.hpp"

using attn::Matrix;

namespace {
const float kInf = std::numeric_limits<float>::infinity();
}

TEST_CASE("softmax turns each row into a distribution", "[softmax]") {
  Matrix x(2, 3);
  x << 1, 2, 3, -1, 0, 5;
  const Matrix w = attn::softmax_rows(x);
  for (int i = 0; i < 2; ++i) CHECK(w.row(i).sum() == Approx(1.0f).margin(1e-6));
  // exp(1) / (exp(1) + exp(2) + exp(3)), computed in double.
  const double expected = std::exp(1.0) / (std::exp(1.0) + std::exp(2.0) + std::exp(3.0));
  CHECK(w(0, 0) == Approx(expected).epsilon(1e-6));
  CHECK(w(0, 2) > w(0, 1));
}

TEST_CASE("softmax ignores a constant added to a row", "[softmax]") {
  Matrix x(1, 4);
  x << 0.5f, -2.0f, 3.0f, 1.0f;
  const Matrix shifted = (x.array() + 1000.0f).matrix();
  CHECK(attn::softmax_rows(x).isApprox(attn::softmax_rows(shifted), 1e-5f));
}

TEST_CASE("softmax gives masked entries exactly zero weight", "[softmax]") {
  Matrix x(2, 3);
  x << 1, -kInf, 2, -kInf, -kInf, 0;
  const Matrix w = attn::softmax_rows(x);
  CHECK(w(0, 1) == 0.0f);
  CHECK(w(1, 0) == 0.0f);
  CHECK(w(1, 1) == 0.0f);
  CHECK(w(1, 2) == 1.0f);
}

TEST_CASE("softmax temperature sharpens or flattens", "[softmax]") {
  Matrix x(1, 2);
  x << 0, 1;
  const float cold = attn::softmax_rows(x, 0.1f)(0, 1);
  const float warm = attn::softmax_rows(x, 10.0f)(0, 1);
  CHECK(cold > 0.99f);
  CHECK(warm == Approx(1.0 / (1.0 + std::exp(-0.1))).epsilon(1e-5));
}

TEST_CASE("softmax survives extreme logits", "[softmax]") {
  Matrix x(1, 3);
  x << 1e4f, -1e4f, 1e4f - 1;
  const Matrix w = attn::softmax_rows(x);
  CHECK(w.allFinite());
  CHECK(w.sum() == Approx(1.0f));
  CHECK(w(0, 1) == 0.0f);
}

TEST_CASE("softmax rejects bad input with a message", "[softmax]") {
  Matrix all_masked(1, 2);
  all_masked << -kInf, -kInf;
  CHECK_THROWS_WITH(attn::softmax_rows(all_masked), Catch::Contains("row 0"));
  Matrix with_nan(1, 2);
  with_nan << 1, std::nanf("");
  CHECK_THROWS_WITH(attn::softmax_rows(with_nan), Catch::Contains("NaN"));
  CHECK_THROWS_WITH(attn::softmax_rows(Matrix(0, 3)), Catch::Contains("empty"));
  CHECK_THROWS_WITH(attn::softmax_rows(Matrix::Zero(1, 2), 0.0f), Catch::Contains("temperature"));
}

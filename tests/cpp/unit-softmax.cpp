#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "../../src/ordered_math.hpp"
#include "../../src/row_softmax.hpp"
#include "attn/softmax.hpp"
#include "gradient_check.hpp"
#include "helpers.hpp"

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

TEST_CASE("softmax: dL/dx matches central differences, masked entries get exactly 0", "[softmax]") {
  test::MatD x = test::random_d(3, 5, 21) * 2.0;
  const double inf = std::numeric_limits<double>::infinity();
  x(0, 1) = -inf;
  x(2, 0) = -inf;
  x(2, 4) = -inf;
  const test::MatD r = test::random_d(3, 5, 22);
  const test::MatD w = attn::softmax_rows_forward(x);
  CHECK(w(0, 1) == 0.0);
  for (int i = 0; i < 3; ++i) CHECK(w.row(i).sum() == Approx(1.0).epsilon(1e-12));
  const test::MatD dx = attn::softmax_rows_backward(w, r);
  CHECK(dx(0, 1) == 0.0);
  CHECK(dx(2, 0) == 0.0);
  CHECK(dx(2, 4) == 0.0);
  // A masked entry stays -inf when nudged, so its central difference is 0 as well.
  test::check_gradient("dL/dx", x, dx,
                       [&] { return test::weighted_sum(attn::softmax_rows_forward(x), r); });
}

TEST_CASE("float softmax rounds as the plain loops do: vector lanes change no bit", "[softmax]") {
  // softmax_rows_forward takes the maximum, the exponentials and the normalisation a vector at a
  // time for float (as wide as the target's); the result must equal, bit for bit, max / exp_of /
  // an in-order sum / times its reciprocal one entry at a time, masked (-inf) entries included,
  // for every row length and tail.
  const float minus_inf = -std::numeric_limits<float>::infinity();
  std::uint64_t seed = 70;
  for (const int cols : {1, 3, 4, 5, 8, 13, 17, 35, 64, 67}) {
    for (const float spread : {0.1f, 3.0f, 40.0f}) {
      attn::MatrixT<float> x = test::random(9, cols, seed++) * spread;
      for (int r = 0; r < x.rows(); ++r) {
        for (int c = 1; c < cols; ++c) {
          if (c > r) x(r, c) = minus_inf;  // causal, and every row keeps column 0
        }
      }
      const attn::MatrixT<float> w = attn::softmax_rows_forward(x);
      for (int r = 0; r < x.rows(); ++r) {
        float top = minus_inf;
        for (int c = 0; c < cols; ++c) top = x(r, c) > top ? x(r, c) : top;
        std::vector<float> e(static_cast<size_t>(cols));
        float total = 0;
        for (int c = 0; c < cols; ++c) {
          e[static_cast<size_t>(c)] =
              x(r, c) == minus_inf ? 0.0f : attn::detail::exp_of(x(r, c) - top);
          total += e[static_cast<size_t>(c)];
        }
        const float inverse = 1.0f / total;
        for (int c = 0; c < cols; ++c) {
          INFO("cols " << cols << " spread " << spread << " row " << r << " col " << c);
          CHECK(w(r, c) == e[static_cast<size_t>(c)] * inverse);
        }
      }
    }
  }
}

TEST_CASE("the raw row softmax gives the same bits in place, with strides, in any group of rows",
          "[softmax]") {
  // softmax_rows_into sums eight rows side by side; a row's result must not depend on which
  // rows share its group, on the strides, or on writing over its input.
  const attn::MatrixT<float> x = test::random(19, 21, 90) * 5.0f;
  const attn::MatrixT<float> whole = attn::softmax_rows_forward(x);
  for (int r = 0; r < x.rows(); ++r) {
    const attn::MatrixT<float> alone = attn::softmax_rows_forward<float>(x.row(r));
    INFO("row " << r);
    CHECK(alone == whole.row(r));
  }
  // The odd rows only, read 2 rows apart and written in place over a copy of x.
  attn::MatrixT<float> in_place = x;
  const long bad =
      attn::detail::softmax_rows_into(in_place.data() + 21, 42, in_place.data() + 21, 42, 9, 21);
  CHECK(bad == -1);
  for (int r = 1; r < x.rows(); r += 2) CHECK(in_place.row(r) == whole.row(r));
  for (int r = 0; r < x.rows(); r += 2) CHECK(in_place.row(r) == x.row(r));
  // A row whose largest entry is +inf has nothing finite to weigh: its index comes back.
  attn::MatrixT<float> overflow = x;
  overflow(11, 3) = kInf;
  std::vector<float> w(static_cast<size_t>(overflow.size()));
  CHECK(attn::detail::softmax_rows_into(overflow.data(), 21, w.data(), 21, 19, 21) == 11);
}

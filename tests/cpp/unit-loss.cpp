#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "attn/loss.hpp"
#include "gradient_check.hpp"
#include "helpers.hpp"

using attn::kIgnoredTarget;
using test::MatD;

TEST_CASE("softmax cross-entropy: dL/dlogits matches central differences, ignored rows get 0",
          "[loss]") {
  MatD logits = test::random_d(6, 4, 51) * 2.0;
  const std::vector<int> targets = {3, kIgnoredTarget, 0, 2, kIgnoredTarget, 1};
  const auto result = attn::softmax_cross_entropy(logits, targets);
  CHECK(result.counted == 4);
  test::check_gradient("dL/dlogits", logits, result.d_logits,
                       [&] { return attn::softmax_cross_entropy(logits, targets).loss; });
  CHECK(result.d_logits.row(1).isZero(0));
  CHECK(result.d_logits.row(4).isZero(0));
}

TEST_CASE("softmax cross-entropy is the mean of -log p(target) over the rows not ignored",
          "[loss]") {
  const MatD logits = test::random_d(5, 3, 52);
  const std::vector<int> targets = {2, 0, kIgnoredTarget, 1, 1};
  double total = 0;
  for (int r = 0; r < 5; ++r) {
    if (targets[r] == kIgnoredTarget) continue;
    const double norm = logits.row(r).array().exp().sum();
    total -= std::log(std::exp(logits(r, targets[r])) / norm);
  }
  CHECK(attn::softmax_cross_entropy(logits, targets).loss == Approx(total / 4).epsilon(1e-12));
  // An ignored row's logits change nothing.
  MatD changed = logits;
  changed.row(2) *= 100.0;
  CHECK(attn::softmax_cross_entropy(changed, targets).loss ==
        attn::softmax_cross_entropy(logits, targets).loss);
  // Equal logits over C classes cost log C, in float as in double.
  const std::vector<int> one = {4};
  CHECK(attn::softmax_cross_entropy<float>(attn::MatrixT<float>::Zero(1, 8), one).loss ==
        Approx(std::log(8.0)).epsilon(1e-6));
}

TEST_CASE("softmax cross-entropy refuses targets it cannot score", "[loss]") {
  const MatD logits = test::random_d(3, 4, 53);
  CHECK_THROWS_WITH(attn::softmax_cross_entropy(logits, {0, 1}),
                    Catch::Contains("logits is 3x4 but there are 2 targets"));
  CHECK_THROWS_WITH(attn::softmax_cross_entropy(logits, {0, 4, 1}),
                    Catch::Contains("targets[1] = 4 is neither a class in [0, 4)"));
  CHECK_THROWS_WITH(attn::softmax_cross_entropy(logits, {-1, -1, -1}),
                    Catch::Contains("every target is ignored"));
}

TEST_CASE("the in-place cross-entropy gives the same sum and scaled gradient as the reference",
          "[loss]") {
  const std::vector<int> targets = {3, kIgnoredTarget, 0, 199, 7, kIgnoredTarget};
  const MatD logits = test::random_d(6, 200, 54) * 4.0;
  const auto reference = attn::softmax_cross_entropy(logits, targets);
  MatD in_place = logits;
  int counted = 0;
  const double sum = attn::softmax_cross_entropy_in_place(in_place, targets, 0.25, &counted);
  CHECK(counted == 4);
  CHECK(sum == Approx(reference.loss * 4).epsilon(1e-12));
  CHECK(in_place.isApprox(reference.d_logits * 0.25, 1e-12));
  CHECK(in_place.row(1).isZero(0));  // ignored rows: exactly 0
  // Its gradient is that of the mean loss: central differences of sum / counted.
  MatD x = logits;
  MatD analytic = logits;
  attn::softmax_cross_entropy_in_place(analytic, targets, 1.0, &counted);
  test::check_gradient("dL/dlogits", x, analytic, [&] {
    MatD copy = x;
    int n = 0;
    return attn::softmax_cross_entropy_in_place(copy, targets, 1.0, &n) / 4;
  });
  // In float, within 1e-5 relative of the double numbers.
  attn::MatrixT<float> f = logits.cast<float>();
  const float fsum = attn::softmax_cross_entropy_in_place(f, targets, 0.25f, &counted);
  CHECK(fsum == Approx(sum).epsilon(1e-5));
  CHECK((f.cast<double>() - in_place).cwiseAbs().maxCoeff() <
        1e-5 * in_place.cwiseAbs().maxCoeff());
}

TEST_CASE("label smoothing mixes the target with the uniform distribution, and its gradient checks",
          "[loss]") {
  const std::vector<int> targets = {3, kIgnoredTarget, 0, 9};
  const MatD logits = test::random_d(4, 10, 57) * 3.0;
  const double s = 0.1;
  // The loss by its definition: -sum_v q_v log p_v, q = (1 - s) one_hot + s / c, summed over the
  // counted rows.
  double expected = 0;
  for (Eigen::Index r = 0; r < 4; ++r) {
    const int t = targets[static_cast<size_t>(r)];
    if (t == kIgnoredTarget) continue;
    const double top = logits.row(r).maxCoeff();
    const double log_sum = std::log((logits.row(r).array() - top).exp().sum()) + top;
    for (Eigen::Index v = 0; v < 10; ++v) {
      const double q = (v == t ? 1 - s : 0) + s / 10;
      expected -= q * (logits(r, v) - log_sum);
    }
  }
  MatD analytic = logits;
  int counted = 0;
  const double sum = attn::softmax_cross_entropy_in_place(analytic, targets, 1.0, &counted, s);
  CHECK(counted == 3);
  CHECK(sum == Approx(expected).epsilon(1e-12));
  CHECK(analytic.row(1).isZero(0));
  MatD x = logits;
  test::check_gradient("dL/dlogits, smoothed", x, analytic, [&] {
    MatD copy = x;
    int n = 0;
    return attn::softmax_cross_entropy_in_place(copy, targets, 1.0, &n, s) / 3;
  });
  // Smoothing 0 is the plain loss, bit for bit.
  MatD plain = logits, zero = logits;
  CHECK(attn::softmax_cross_entropy_in_place(plain, targets, 1.0, &counted) ==
        attn::softmax_cross_entropy_in_place(zero, targets, 1.0, &counted, 0.0));
  CHECK(plain == zero);
  MatD bad = logits;
  CHECK_THROWS_WITH(attn::softmax_cross_entropy_in_place(bad, targets, 1.0, &counted, 1.0),
                    Catch::Contains("label smoothing must be in [0, 1)"));
}

TEST_CASE(
    "the in-place cross-entropy refuses what the reference refuses, but not an all-ignored "
    "call",
    "[loss]") {
  MatD logits = test::random_d(3, 4, 55);
  int counted = -1;
  CHECK_THROWS_WITH(attn::softmax_cross_entropy_in_place(logits, {0, 1}, 1.0, &counted),
                    Catch::Contains("logits is 3x4 but there are 2 targets"));
  CHECK_THROWS_WITH(attn::softmax_cross_entropy_in_place(logits, {0, 4, 1}, 1.0, &counted),
                    Catch::Contains("targets[1] = 4 is neither a class in [0, 4)"));
  CHECK(attn::softmax_cross_entropy_in_place(logits, {-1, -1, -1}, 1.0, &counted) == 0);
  CHECK(counted == 0);
  CHECK(logits.isZero(0));
  MatD bad = test::random_d(2, 4, 56);
  bad(1, 2) = std::nan("");
  CHECK_THROWS_WITH(attn::softmax_cross_entropy_in_place(bad, {0, 1}, 1.0, &counted),
                    Catch::Contains("NaN or infinity"));
  // In float, a NaN or an infinity anywhere in a row (vector lanes and the tail), not only
  // where the exp would show it.
  for (const int col : {0, 5, 17, 36}) {
    for (const float value :
         {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
      attn::MatrixT<float> wide = test::random(3, 37, 57);
      wide(2, col) = value;
      INFO("column " << col << ", " << value);
      CHECK_THROWS_WITH(attn::softmax_cross_entropy_in_place(wide, {0, 1, 2}, 1.0f, &counted),
                        Catch::Contains("row 2 of the logits contains NaN or infinity"));
    }
  }
}

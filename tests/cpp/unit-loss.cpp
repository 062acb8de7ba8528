#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "attn/loss.hpp"
#include "gradient_check.hpp"

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

#include <catch2/catch.hpp>
#include <cmath>

#include "attn/mlp.hpp"
#include "gradient_check.hpp"

using test::MatD;

TEST_CASE("gelu: dL/dx matches central differences", "[mlp]") {
  MatD x = test::random_d(5, 7, 21) * 2.0;
  const MatD r = test::random_d(5, 7, 22);
  const auto pass = attn::gelu_forward(x);
  const MatD dx = attn::gelu_backward(pass, r);
  test::check_gradient("dL/dx", x, dx,
                       [&] { return test::weighted_sum(attn::gelu_forward(x).y, r); });
}

TEST_CASE("gelu's tanh form stays within 5e-4 of the exact x Phi(x)", "[mlp]") {
  // The exact GELU from the error function, computed independently here.
  MatD x(1, 1201);
  for (int i = 0; i < x.cols(); ++i) x(0, i) = -6.0 + 0.01 * i;
  const MatD y = attn::gelu_forward(x).y;
  double worst = 0;
  for (int i = 0; i < x.cols(); ++i) {
    const double v = x(0, i);
    const double exact = 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0)));
    worst = std::max(worst, std::abs(y(0, i) - exact));
  }
  INFO("largest difference " << worst);
  CHECK(worst < 5e-4);
  CHECK(worst > 1e-5);  // it is the approximation, not the exact function
}

TEST_CASE("gelu in float agrees with gelu in double within 1e-6 relative", "[mlp]") {
  attn::MatrixT<float> x(1, 2001);
  for (int i = 0; i < x.cols(); ++i) x(0, i) = -10.0f + 0.01f * static_cast<float>(i);
  const attn::MatrixT<float> yf = attn::gelu_forward(x).y;
  const MatD yd = attn::gelu_forward<double>(x.cast<double>()).y;
  for (int i = 0; i < x.cols(); ++i) {
    INFO("x = " << x(0, i));
    CHECK(std::abs(yf(0, i) - yd(0, i)) <= 1e-6 * std::max(1.0, std::abs(yd(0, i))));
  }
}

namespace {

// An MLP 6 -> 24 -> 6 on 4 rows with non-zero biases, and the weights of the loss sum(y * r).
struct MlpSetup {
  MatD x = test::random_d(4, 6, 23);
  attn::MlpWeights<double> w = attn::mlp_weights<double>(6, 24, 24, 1.0, "mlp");
  MatD r = test::random_d(4, 6, 25);

  MlpSetup() {
    w.b1.value = test::random_d(1, 24, 26) * 0.5;
    w.b2.value = test::random_d(1, 6, 27) * 0.5;
  }
  double loss() const { return test::weighted_sum(attn::mlp_forward(x, w).output.y, r); }
};

}  // namespace

TEST_CASE("mlp: dL/dx and every weight's gradient match central differences", "[mlp]") {
  MlpSetup s;
  const auto pass = attn::mlp_forward(s.x, s.w);
  const MatD dx = attn::mlp_backward(pass, s.r, s.w);
  test::check_gradient("dL/dx", s.x, dx, [&] { return s.loss(); });
  test::check_parameter_gradients({&s.w.w1, &s.w.b1, &s.w.w2, &s.w.b2}, [&] { return s.loss(); });
}

TEST_CASE("mlp: seeded weights have the stated variance and output scale", "[mlp]") {
  const auto w = attn::mlp_weights<double>(64, 256, 5, 0.5, "mlp");
  // Uniform in +-sqrt(3 / fan_in): variance 1 / fan_in, W_2 times 0.5.
  CHECK(w.w1.value.array().square().mean() == Approx(1.0 / 64).epsilon(0.05));
  CHECK(w.w2.value.array().square().mean() == Approx(0.25 / 256).epsilon(0.05));
  CHECK(w.w1.value.cwiseAbs().maxCoeff() <= std::sqrt(3.0 / 64) + 1e-7);
  CHECK(w.b1.value.isZero(0));
  CHECK(w.w1.name == "mlp.W_1");
  const auto again = attn::mlp_weights<double>(64, 256, 5, 0.5, "mlp");
  CHECK(again.w2.value == w.w2.value);
}

TEST_CASE("mlp: shapes that do not fit are named", "[mlp]") {
  auto w = attn::mlp_weights<double>(6, 24, 1, 1.0, "block0.mlp");
  CHECK_THROWS_WITH(attn::mlp_forward<double>(test::random_d(3, 5, 1), w),
                    Catch::Contains("x is 3x5 and block0.mlp.W_1 is 6x24"));
  w.b1.value = test::random_d(1, 23, 2);
  CHECK_THROWS_WITH(attn::mlp_forward<double>(test::random_d(3, 6, 1), w),
                    Catch::Contains("block0.mlp.b_1 is 1x23 but must be 1x24"));
  CHECK_THROWS_WITH(attn::mlp_weights<double>(6, 0, 1, 1.0, "mlp"), Catch::Contains("d_mlp = 0"));
}

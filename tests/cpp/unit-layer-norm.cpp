#include <catch2/catch.hpp>
#include <cmath>

#include "attn/layer_norm.hpp"
#include "gradient_check.hpp"

using test::MatD;

namespace {

// A layer norm of width 6 on 4 rows, gain and bias moved off their initial 1 and 0 so that both
// enter the check, and the weights r of the scalar loss sum(y * r).
struct LayerNormSetup {
  MatD x = test::random_d(4, 6, 11) * 2.0;
  attn::LayerNormWeights<double> w = attn::layer_norm_weights<double>(6, "norm");
  MatD r = test::random_d(4, 6, 12);

  LayerNormSetup() {
    w.gain.value += test::random_d(1, 6, 13) * 0.5;
    w.bias.value += test::random_d(1, 6, 14) * 0.5;
    x.row(1).array() += 5.0;  // a row far from 0: the mean matters
  }
  double loss() const { return test::weighted_sum(attn::layer_norm_forward(x, w).y, r); }
};

}  // namespace

TEST_CASE("layer norm: dL/dx matches central differences", "[layer-norm]") {
  LayerNormSetup s;
  const auto pass = attn::layer_norm_forward(s.x, s.w);
  const MatD dx = attn::layer_norm_backward(pass, s.r, s.w);
  test::check_gradient("dL/dx", s.x, dx, [&] { return s.loss(); });
}

TEST_CASE("layer norm: dL/dgain and dL/dbias match central differences", "[layer-norm]") {
  LayerNormSetup s;
  const auto pass = attn::layer_norm_forward(s.x, s.w);
  attn::layer_norm_backward(pass, s.r, s.w);
  const MatD dg = s.w.gain.grad, db = s.w.bias.grad;
  test::check_gradient("dL/dgain", s.w.gain.value, dg, [&] { return s.loss(); });
  test::check_gradient("dL/dbias", s.w.bias.value, db, [&] { return s.loss(); });
}

TEST_CASE("layer norm with gain 1 and bias 0 gives rows of mean 0 and variance var/(var+eps)",
          "[layer-norm]") {
  const MatD x = test::random_d(5, 8, 15) * 3.0;
  const auto w = attn::layer_norm_weights<double>(8, "norm");
  const MatD y = attn::layer_norm_forward(x, w).y;
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    const double mean = x.row(r).mean();
    const double var = (x.row(r).array() - mean).square().mean();
    CHECK(std::abs(y.row(r).mean()) < 1e-12);
    // The biased variance, with eps = 1e-5 inside the root, as PyTorch.
    CHECK(y.row(r).array().square().mean() == Approx(var / (var + 1e-5)).epsilon(1e-12));
  }
}

TEST_CASE("layer norm of a constant row is its bias, with a finite gradient", "[layer-norm]") {
  MatD x = MatD::Constant(2, 4, 3.5);
  auto w = attn::layer_norm_weights<double>(4, "norm");
  w.bias.value << 0.1, -0.2, 0.3, 0.4;
  const auto pass = attn::layer_norm_forward(x, w);
  CHECK(pass.y.row(0).isApprox(w.bias.value, 1e-12));
  const MatD dx = attn::layer_norm_backward(pass, test::random_d(2, 4, 16), w);
  CHECK(dx.allFinite());
}

TEST_CASE("layer norm: shapes that do not fit are named", "[layer-norm]") {
  const auto w = attn::layer_norm_weights<double>(4, "block0.norm1");
  CHECK_THROWS_WITH(attn::layer_norm_forward<double>(test::random_d(3, 5, 1), w),
                    Catch::Contains("block0.norm1.gain is 1x4 but must be 1x5"));
  auto w2 = w;
  const auto pass = attn::layer_norm_forward<double>(test::random_d(3, 4, 1), w2);
  CHECK_THROWS_WITH(attn::layer_norm_backward<double>(pass, test::random_d(2, 4, 1), w2),
                    Catch::Contains("dy is 2x4 but must be 3x4"));
}

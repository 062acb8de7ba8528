#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "attn/adam.hpp"
#include "gradient_check.hpp"

using test::MatD;
using test::ParamD;

namespace {

// sqrt(sum of every gradient entry squared).
double global_norm(const std::vector<ParamD*>& parameters) {
  double squares = 0;
  for (const ParamD* p : parameters) squares += p->grad.squaredNorm();
  return std::sqrt(squares);
}

}  // namespace

TEST_CASE("adam: the first step moves every entry by the learning rate against its gradient",
          "[adam]") {
  // With bias correction, m_hat = g and v_hat = g^2 after one step, so the step is lr * sign(g).
  ParamD p{"x", test::random_d(3, 4, 61)};
  const MatD start = p.value;
  p.grad = test::random_d(3, 4, 62);
  attn::AdamOptions options;
  options.learning_rate = 0.01;
  attn::Adam<double> adam({&p}, options);
  adam.step();
  CHECK(adam.steps() == 1);
  for (Eigen::Index i = 0; i < p.value.size(); ++i) {
    const double g = p.grad.data()[i];
    CHECK(start.data()[i] - p.value.data()[i] == Approx(0.01 * (g > 0 ? 1 : -1)).epsilon(1e-5));
  }
}

TEST_CASE("adam: a new learning rate scales the next step and keeps the running means", "[adam]") {
  ParamD a{"a", test::random_d(2, 3, 71)}, b{"b", a.value};
  const MatD g1 = test::random_d(2, 3, 72), g2 = test::random_d(2, 3, 73);
  attn::AdamOptions options;
  options.learning_rate = 0.01;
  attn::Adam<double> full({&a}, options), scaled({&b}, options);
  a.grad = g1;
  b.grad = g1;
  full.step();
  scaled.step();
  const MatD after_first = a.value;
  REQUIRE(b.value == after_first);
  scaled.set_learning_rate(0.0025);
  CHECK(scaled.learning_rate() == 0.0025);
  a.grad = g2;
  b.grad = g2;
  full.step();
  scaled.step();
  // Same means, so the second step of `scaled` is a quarter of that of `full`.
  for (Eigen::Index i = 0; i < a.value.size(); ++i) {
    const double step_full = a.value.data()[i] - after_first.data()[i];
    const double step_scaled = b.value.data()[i] - after_first.data()[i];
    CHECK(step_scaled == Approx(0.25 * step_full).epsilon(1e-9));
  }
  CHECK_THROWS_AS(scaled.set_learning_rate(0), attn::InvalidArgument);
  CHECK_THROWS_AS(scaled.set_learning_rate(NAN), attn::InvalidArgument);
}

TEST_CASE("adam: minimises an ill-conditioned quadratic", "[adam]") {
  // f(x, y) = 1/2 sum a_i (x_i - c_i)^2 + 1/2 sum b_j (y_j - d_j)^2, curvatures from 0.01 to 100,
  // over two parameters: the minimum is x = c, y = d.
  ParamD x{"x", MatD::Zero(2, 3)};
  ParamD y{"y", MatD::Zero(1, 4)};
  MatD a(2, 3), c = test::random_d(2, 3, 63), b(1, 4), d = test::random_d(1, 4, 64);
  a << 0.01, 0.1, 1, 10, 100, 3;
  b << 100, 0.05, 2, 0.5;
  attn::AdamOptions options;
  options.learning_rate = 0.02;
  attn::Adam<double> adam({&x, &y}, options);
  const auto loss = [&] {
    return 0.5 * ((a.array() * (x.value - c).array().square()).sum() +
                  (b.array() * (y.value - d).array().square()).sum());
  };
  const double initial = loss();
  for (int s = 0; s < 4000; ++s) {
    x.grad = (a.array() * (x.value - c).array()).matrix();
    y.grad = (b.array() * (y.value - d).array()).matrix();
    adam.step();
  }
  INFO("loss from " << initial << " to " << loss());
  CHECK(loss() < 1e-6 * initial);
  CHECK((x.value - c).cwiseAbs().maxCoeff() < 1e-2);
  CHECK((y.value - d).cwiseAbs().maxCoeff() < 1e-2);
}

TEST_CASE("adam: refuses options out of range and parameters that change shape", "[adam]") {
  ParamD p{"W_o", MatD::Zero(2, 2)};
  attn::AdamOptions bad;
  bad.learning_rate = 0;
  CHECK_THROWS_WITH(attn::Adam<double>({&p}, bad), Catch::Contains("learning_rate must be in"));
  bad = {};
  bad.beta2 = 1;
  CHECK_THROWS_WITH(attn::Adam<double>({&p}, bad), Catch::Contains("beta2 must be in"));
  CHECK_THROWS_WITH(attn::Adam<double>({nullptr}, {}), Catch::Contains("parameter 0 is null"));
  attn::Adam<double> adam({&p}, {});
  p.value = MatD::Zero(3, 2);
  p.zero_grad();
  CHECK_THROWS_WITH(adam.step(), Catch::Contains("W_o changed shape"));
}

TEST_CASE("clipping scales the global norm down to the limit and keeps the direction", "[adam]") {
  ParamD a{"a", MatD::Zero(2, 3)}, b{"b", MatD::Zero(1, 5)};
  a.grad = test::random_d(2, 3, 65) * 3.0;
  b.grad = test::random_d(1, 5, 66) * 3.0;
  const std::vector<ParamD*> both = {&a, &b};
  const double before = global_norm(both);
  REQUIRE(before > 2.0);
  const MatD a_before = a.grad;
  CHECK(attn::clip_global_norm(both, 2.0) == Approx(before).epsilon(1e-12));
  CHECK(global_norm(both) == Approx(2.0).epsilon(1e-12));
  CHECK(a.grad.isApprox(a_before * (2.0 / before), 1e-12));
  // At or under the limit nothing changes; a limit of 0 turns clipping off.
  const MatD b_clipped = b.grad;
  CHECK(attn::clip_global_norm(both, 5.0) == Approx(2.0).epsilon(1e-12));
  CHECK(b.grad == b_clipped);
  b.grad *= 1000.0;
  const MatD b_large = b.grad;
  attn::clip_global_norm(both, 0.0);
  CHECK(b.grad == b_large);
  CHECK_THROWS_WITH(attn::clip_global_norm(both, -1.0), Catch::Contains("max_norm must be >= 0"));
}

TEST_CASE("clipping refuses a null parameter, as the optimiser does", "[adam]") {
  // A case the fuzzer (tests/fuzz) found: a null pointer in the list is refused before anything
  // is read through it.
  ParamD a{"a", MatD::Zero(2, 3)};
  a.grad = MatD::Constant(2, 3, 4.0);
  CHECK_THROWS_WITH(attn::clip_global_norm<double>({&a, nullptr}, 1.0),
                    Catch::Contains("parameter 1 is null"));
  CHECK(a.grad == MatD::Constant(2, 3, 4.0));  // nothing clipped before the refusal
}

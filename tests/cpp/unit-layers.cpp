#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "attn/layers.hpp"
#include "gradient_check.hpp"

using test::MatD;
using test::ParamD;

namespace {

// A linear layer (4 inputs -> 3 outputs) on 5 rows, and the weights of the scalar loss sum(y * r).
struct LinearSetup {
  MatD x = test::random_d(5, 4, 1);
  ParamD w{"W", test::random_d(4, 3, 2)};
  ParamD b{"b", test::random_d(1, 3, 3)};
  MatD r = test::random_d(5, 3, 4);

  double loss() const { return test::weighted_sum(attn::linear_forward<double>(x, w, &b).y, r); }
};

}  // namespace

TEST_CASE("linear: dL/dx matches central differences", "[layers]") {
  LinearSetup s;
  const auto pass = attn::linear_forward<double>(s.x, s.w, &s.b);
  const MatD dx = attn::linear_backward(pass, s.r, s.w, &s.b);
  test::check_gradient("dL/dx", s.x, dx, [&] { return s.loss(); });
}

TEST_CASE("linear: dL/dW and dL/db match central differences", "[layers]") {
  LinearSetup s;
  const auto pass = attn::linear_forward<double>(s.x, s.w, &s.b);
  attn::linear_backward(pass, s.r, s.w, &s.b);
  const MatD dw = s.w.grad, db = s.b.grad;
  test::check_gradient("dL/dW", s.w.value, dw, [&] { return s.loss(); });
  test::check_gradient("dL/db", s.b.value, db, [&] { return s.loss(); });
}

TEST_CASE("linear: gradients add up over backward calls, and no bias means none", "[layers]") {
  LinearSetup s;
  const auto pass = attn::linear_forward<double>(s.x, s.w, nullptr);
  CHECK(pass.y.isApprox(s.x * s.w.value, 1e-12));
  attn::linear_backward<double>(pass, s.r, s.w, nullptr);
  const MatD once = s.w.grad;
  attn::linear_backward<double>(pass, s.r, s.w, nullptr);
  CHECK(s.w.grad.isApprox(2 * once, 1e-12));
  CHECK(once.isApprox(s.x.transpose() * s.r, 1e-12));
  CHECK(s.b.grad.isZero(0));  // untouched
}

TEST_CASE("linear: shapes that do not fit are named", "[layers]") {
  ParamD w{"W_e", test::random_d(4, 3, 2)};
  ParamD b{"b_e", test::random_d(1, 2, 3)};
  CHECK_THROWS_WITH(attn::linear_forward<double>(test::random_d(5, 3, 1), w, nullptr),
                    Catch::Contains("x is 5x3 and W_e is 4x3"));
  CHECK_THROWS_WITH(attn::linear_forward<double>(test::random_d(5, 4, 1), w, &b),
                    Catch::Contains("b_e is 1x2 but must be 1x3"));
  const auto pass = attn::linear_forward<double>(test::random_d(5, 4, 1), w, nullptr);
  CHECK_THROWS_WITH(attn::linear_backward<double>(pass, test::random_d(4, 3, 1), w, nullptr),
                    Catch::Contains("dy is 4x3 but must be 5x3"));
}

TEST_CASE("tanh: dL/dx matches central differences", "[layers]") {
  MatD x = test::random_d(4, 6, 5) * 1.5;
  const MatD r = test::random_d(4, 6, 6);
  const auto pass = attn::tanh_forward(x);
  const MatD dx = attn::tanh_backward(pass, r);
  test::check_gradient("dL/dx", x, dx,
                       [&] { return test::weighted_sum(attn::tanh_forward(x).y, r); });
}

TEST_CASE("tanh in float agrees with the standard library's within 3e-7", "[layers]") {
  // The float version is the project's own (the same bits in every build); check it over a fine
  // grid from -12 to 12, through 0 and both branches.
  attn::MatrixT<float> x(1, 24001);
  for (int i = 0; i < x.cols(); ++i) x(0, i) = -12.0f + 0.001f * static_cast<float>(i);
  const attn::MatrixT<float> y = attn::tanh_forward(x).y;
  double worst = 0;
  for (int i = 0; i < x.cols(); ++i) {
    worst = std::max(worst, std::abs(y(0, i) - std::tanh(static_cast<double>(x(0, i)))));
  }
  CHECK(worst < 3e-7);
  CHECK(attn::tanh_forward<float>(attn::MatrixT<float>::Zero(1, 1)).y(0, 0) == 0.0f);
}

TEST_CASE("embedding: dL/dE matches central differences, and the padding row gets exactly 0",
          "[layers]") {
  ParamD table{"E", test::random_d(5, 3, 7)};
  // Row 2 is read twice, so its gradient is the sum of two rows of dy; 0 is padding.
  const std::vector<int> ids = {2, 0, 4, 2, 1, 0};
  const MatD r = test::random_d(6, 3, 8);
  const auto pass = attn::embedding_forward(ids, table);
  CHECK(pass.y.row(1).isZero(0));  // padded slots read zeros
  CHECK(pass.y.row(0) == table.value.row(2));
  attn::embedding_backward(pass, r, table);
  const MatD dtable = table.grad;
  test::check_gradient("dL/dE", table.value, dtable, [&] {
    return test::weighted_sum(attn::embedding_forward(ids, table).y, r);
  });
  CHECK(dtable.row(0).isZero(0));  // exactly zero: padding is never trained
  CHECK(dtable.row(3).isZero(0));  // never read
}

TEST_CASE("embedding: ids outside the table are refused", "[layers]") {
  ParamD table{"E", test::random_d(5, 3, 7)};
  CHECK_THROWS_WITH(attn::embedding_forward<double>({1, 5}, table),
                    Catch::Contains("ids[1] = 5 is outside the table of 5 rows"));
  CHECK_THROWS_WITH(attn::embedding_forward<double>({-1}, table), Catch::Contains("ids[0] = -1"));
}

TEST_CASE("dropout: entries are zeroed or scaled by 1 / (1 - rate), about rate of them zeroed",
          "[layers]") {
  const MatD x = test::random_d(200, 50, 60);
  MatD y = x;
  attn::Rng rng(61);
  const MatD mask = attn::dropout_forward(y, 0.25, rng);
  REQUIRE(mask.rows() == 200);
  REQUIRE(mask.cols() == 50);
  long zeroed = 0;
  for (Eigen::Index i = 0; i < mask.size(); ++i) {
    const double m = mask.data()[i];
    CHECK((m == 0.0 || m == 1 / 0.75));
    CHECK(y.data()[i] == x.data()[i] * m);
    zeroed += m == 0.0 ? 1 : 0;
  }
  // 10,000 draws: the share zeroed is within five standard deviations (0.0043 each) of 0.25.
  CHECK(std::abs(static_cast<double>(zeroed) / 10000 - 0.25) < 0.022);
  // The same seed draws the same mask.
  MatD again = x;
  attn::Rng same(61);
  CHECK(attn::dropout_forward(again, 0.25, same) == mask);
}

TEST_CASE("dropout: rate 0 changes nothing and draws nothing; the backward pass applies the mask",
          "[layers]") {
  MatD x = test::random_d(3, 4, 62);
  const MatD before = x;
  attn::Rng rng(63), untouched(63);
  CHECK(attn::dropout_forward(x, 0.0, rng).size() == 0);
  CHECK(x == before);
  CHECK(rng.next_u32() == untouched.next_u32());
  MatD dy = test::random_d(3, 4, 64);
  const MatD dy_before = dy;
  attn::dropout_backward(MatD(), dy);
  CHECK(dy == dy_before);
  const MatD mask = attn::dropout_forward(x, 0.5, rng);
  attn::dropout_backward(mask, dy);
  CHECK(dy == MatD(dy_before.array() * mask.array()));
  CHECK_THROWS_AS(attn::dropout_forward(x, 1.0, rng), attn::InvalidArgument);
  CHECK_THROWS_AS(attn::dropout_forward(x, -0.1, rng), attn::InvalidArgument);
  MatD wrong = test::random_d(2, 4, 65);
  CHECK_THROWS_AS(attn::dropout_backward(mask, wrong), attn::InvalidArgument);
}

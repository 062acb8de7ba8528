#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "attn/gru.hpp"
#include "gradient_check.hpp"

using test::MatD;

namespace {

using GruD = attn::GruParameters<double>;

// A GRU with inputs of width 3 and a state of width 4, drawn as the models draw theirs, in double.
GruD small_gru(std::uint64_t seed = 7) {
  return attn::make_gru_parameters<double>("g", 3, 4, seed);
}

// One step for 3 sequences, the middle one padded, and the weights r of the loss sum(h * r).
struct StepSetup {
  GruD p = small_gru();
  MatD gx = test::random_d(3, 12, 21);
  MatD h_prev = test::random_d(3, 4, 22) * 0.8;
  MatD r = test::random_d(3, 4, 23);
  std::vector<unsigned char> active{1, 0, 1};

  double loss() const {
    return test::weighted_sum(attn::gru_step_forward<double>(gx, h_prev, p, active).h, r);
  }
};

// 3 sequences of lengths 4, 2 and 3 padded to 4 steps (time-major rows t * 3 + b), a starting
// state, and the weights of the loss sum(states * r_states) + sum(last * r_last).
struct SequenceSetup {
  bool reverse = false;
  GruD p = small_gru(8);
  std::vector<int> lengths{4, 2, 3};
  MatD x = test::random_d(12, 3, 31);
  MatD h0 = test::random_d(3, 4, 32) * 0.5;
  MatD r_states = test::random_d(12, 4, 33);
  MatD r_last = test::random_d(3, 4, 34);

  attn::GruSequencePass<double> forward() const {
    return attn::gru_sequence_forward<double>(x, lengths, reverse, p, h0);
  }
  double loss() const {
    const auto pass = forward();
    return test::weighted_sum(pass.states, r_states) + test::weighted_sum(pass.last, r_last);
  }
};

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

}  // namespace

TEST_CASE("gru: one step of width 1 matches the equations worked by hand", "[gru]") {
  GruD p = attn::make_gru_parameters<double>("g", 1, 1, 3);
  p.w_h.value << 0.5, -1.0, 2.0;
  p.b_h.value << 0.1, 0.2, -0.3;
  MatD gx(1, 3), h_prev(1, 1);
  gx << 0.4, -0.6, 0.9;
  h_prev << 0.7;
  // r = s(0.4 + 0.35 + 0.1), z = s(-0.6 - 0.7 + 0.2), n = tanh(0.9 + r (1.4 - 0.3))
  const double r = sigmoid(0.85), z = sigmoid(-1.1), n = std::tanh(0.9 + r * 1.1);
  const auto pass = attn::gru_step_forward<double>(gx, h_prev, p);
  CHECK(pass.r(0, 0) == Approx(r).epsilon(1e-14));
  CHECK(pass.z(0, 0) == Approx(z).epsilon(1e-14));
  CHECK(pass.n(0, 0) == Approx(n).epsilon(1e-14));
  CHECK(pass.h(0, 0) == Approx((1 - z) * n + z * 0.7).epsilon(1e-14));
}

TEST_CASE("gru: a step's dL/dgx and dL/dh_prev match central differences", "[gru]") {
  StepSetup s;
  const auto pass = attn::gru_step_forward<double>(s.gx, s.h_prev, s.p, s.active);
  MatD d_gx;
  const MatD dh_prev = attn::gru_step_backward(pass, s.r, s.p, &d_gx);
  test::check_gradient("dL/dgx", s.gx, d_gx, [&] { return s.loss(); });
  test::check_gradient("dL/dh_prev", s.h_prev, dh_prev, [&] { return s.loss(); });
}

TEST_CASE("gru: a step's dL/dW_h and dL/db_h match central differences", "[gru]") {
  StepSetup s;
  const auto pass = attn::gru_step_forward<double>(s.gx, s.h_prev, s.p, s.active);
  MatD d_gx;
  attn::gru_step_backward(pass, s.r, s.p, &d_gx);
  const MatD dw = s.p.w_h.grad, db = s.p.b_h.grad;
  test::check_gradient("dL/dW_h", s.p.w_h.value, dw, [&] { return s.loss(); });
  test::check_gradient("dL/db_h", s.p.b_h.value, db, [&] { return s.loss(); });
}

TEST_CASE("gru: a padded row keeps its state and passes its gradient straight back", "[gru]") {
  StepSetup s;
  const auto pass = attn::gru_step_forward<double>(s.gx, s.h_prev, s.p, s.active);
  CHECK(pass.h.row(1) == s.h_prev.row(1));
  CHECK(pass.h.row(0) != s.h_prev.row(0));
  MatD d_gx;
  const MatD dh_prev = attn::gru_step_backward(pass, s.r, s.p, &d_gx);
  CHECK(d_gx.row(1).isZero(0));
  CHECK(dh_prev.row(1) == s.r.row(1));
}

TEST_CASE("gru: every gradient of a padded batch matches central differences, both ways", "[gru]") {
  for (const bool reverse : {false, true}) {
    INFO((reverse ? "reverse" : "forward"));
    SequenceSetup s;
    s.reverse = reverse;
    const auto pass = s.forward();
    MatD d_h0;
    const MatD dx = attn::gru_sequence_backward(pass, s.r_states, s.r_last, s.p, &d_h0);
    const MatD dwx = s.p.w_x.grad, dbx = s.p.b_x.grad, dwh = s.p.w_h.grad, dbh = s.p.b_h.grad;
    auto loss = [&] { return s.loss(); };
    test::check_gradient("dL/dx", s.x, dx, loss);
    test::check_gradient("dL/dh0", s.h0, d_h0, loss);
    test::check_gradient("dL/dW_x", s.p.w_x.value, dwx, loss);
    test::check_gradient("dL/db_x", s.p.b_x.value, dbx, loss);
    test::check_gradient("dL/dW_h", s.p.w_h.value, dwh, loss);
    test::check_gradient("dL/db_h", s.p.b_h.value, dbh, loss);
  }
}

TEST_CASE("gru: a padded sequence gives the states it gives alone, and zero at its padding",
          "[gru]") {
  for (const bool reverse : {false, true}) {
    INFO((reverse ? "reverse" : "forward"));
    SequenceSetup s;
    s.reverse = reverse;
    const auto batch = s.forward();
    // Sequence 1 (length 2) alone: its rows 1 and 4 of x, and its starting state.
    MatD x_alone(2, 3);
    x_alone << s.x.row(1), s.x.row(4);
    const auto alone =
        attn::gru_sequence_forward<double>(x_alone, {2}, reverse, s.p, MatD(s.h0.row(1)));
    CHECK(batch.states.row(1).isApprox(alone.states.row(0), 1e-14));
    CHECK(batch.states.row(4).isApprox(alone.states.row(1), 1e-14));
    CHECK(batch.last.row(1).isApprox(alone.last.row(0), 1e-14));
    CHECK(batch.states.row(7).isZero(0));
    CHECK(batch.states.row(10).isZero(0));
    // The forward direction ends on the last token, the reverse one on the first.
    CHECK(batch.last.row(1) == batch.states.row(reverse ? 1 : 4));
  }
}

TEST_CASE("gru: float and double start from the same weights", "[gru]") {
  const auto f = attn::make_gru_parameters<float>("g", 5, 6, 99);
  const auto d = attn::make_gru_parameters<double>("g", 5, 6, 99);
  CHECK(f.w_x.value.cast<double>() == d.w_x.value);
  CHECK(f.b_h.value.cast<double>() == d.b_h.value);
  CHECK(f.w_h.value.cwiseAbs().maxCoeff() <= 1 / std::sqrt(6.0));
  CHECK(f.w_x.name == "g.w_x");
}

TEST_CASE("gru: shapes and lengths that do not fit are named", "[gru]") {
  const GruD p = small_gru();
  CHECK_THROWS_WITH(attn::gru_step_forward<double>(MatD::Zero(2, 11), MatD::Zero(2, 4), p),
                    Catch::Contains("gx is 2x11 but must be 2x12"));
  CHECK_THROWS_WITH(attn::gru_step_forward<double>(MatD::Zero(2, 12), MatD::Zero(2, 4), p, {1}),
                    Catch::Contains("active has 1 flags but there are 2 sequences"));
  CHECK_THROWS_WITH(
      attn::gru_sequence_forward<double>(MatD::Zero(6, 3), {3, 4}, false, p, MatD::Zero(2, 4)),
      Catch::Contains("lengths[1] = 4 must be between 1 and the 3 steps"));
  CHECK_THROWS_WITH(
      attn::gru_sequence_forward<double>(MatD::Zero(5, 3), {1, 2}, false, p, MatD::Zero(2, 4)),
      Catch::Contains("not a whole number of steps"));
  CHECK_THROWS_WITH(
      attn::gru_sequence_forward<double>(MatD::Zero(4, 2), {2, 2}, false, p, MatD::Zero(2, 4)),
      Catch::Contains("g.w_x is 3x12 but must be 2x12"));
  CHECK_THROWS_WITH(attn::make_gru_parameters<double>("g", 0, 4, 1),
                    Catch::Contains("widths must be at least 1"));
}

#include <catch2/catch.hpp>
#include <cmath>

#include "attn/causal_self_attention.hpp"
#include "gradient_check.hpp"

using test::MatD;

namespace {

using Weights = attn::CausalSelfAttentionWeights<double>;

std::vector<attn::Parameter<double>*> all(Weights& w) {
  return {&w.w_q, &w.b_q, &w.w_k, &w.b_k, &w.w_v, &w.b_v, &w.w_o, &w.b_o};
}

// d_model 8 with 4 heads (d_k 2) on 5 positions; every bias moved off 0.
struct AttentionSetup {
  MatD x = test::random_d(5, 8, 31);
  Weights w = attn::causal_self_attention_weights<double>(8, 4, 32, 1.0, "attention");
  MatD r = test::random_d(5, 8, 33);

  AttentionSetup() {
    std::uint64_t seed = 34;
    for (attn::Parameter<double>* p : all(w)) {
      if (p->value.rows() == 1) p->value = test::random_d(1, 8, seed++) * 0.5;
    }
  }
  double loss() const {
    return test::weighted_sum(attn::causal_self_attention_forward(x, w).output.y, r);
  }
};

}  // namespace

TEST_CASE("causal self-attention: dL/dx matches central differences", "[causal-self-attention]") {
  AttentionSetup s;
  const auto pass = attn::causal_self_attention_forward(s.x, s.w);
  const MatD dx = attn::causal_self_attention_backward(pass, s.r, s.w);
  test::check_gradient("dL/dx", s.x, dx, [&] { return s.loss(); });
}

TEST_CASE("causal self-attention: every weight's gradient matches central differences",
          "[causal-self-attention]") {
  AttentionSetup s;
  const auto pass = attn::causal_self_attention_forward(s.x, s.w);
  attn::causal_self_attention_backward(pass, s.r, s.w);
  for (attn::Parameter<double>* p : all(s.w)) {
    const MatD analytic = p->grad;
    test::check_gradient("dL/d" + p->name, p->value, analytic, [&] { return s.loss(); });
  }
}

TEST_CASE(
    "causal self-attention: each head's weights are rows of a distribution, 0 above the "
    "diagonal",
    "[causal-self-attention]") {
  AttentionSetup s;
  const auto pass = attn::causal_self_attention_forward(s.x, s.w);
  REQUIRE(pass.heads.size() == 4);
  for (int j = 0; j < 4; ++j) {
    const MatD& a = pass.weights(j);
    REQUIRE(a.rows() == 5);
    REQUIRE(a.cols() == 5);
    for (Eigen::Index t = 0; t < 5; ++t) {
      CHECK(a.row(t).sum() == Approx(1.0).epsilon(1e-12));
      for (Eigen::Index i = t + 1; i < 5; ++i) CHECK(a(t, i) == 0.0);  // exactly
      for (Eigen::Index i = 0; i <= t; ++i) CHECK(a(t, i) > 0.0);
    }
  }
}

TEST_CASE("causal self-attention: position t's output does not change when later inputs do",
          "[causal-self-attention]") {
  AttentionSetup s;
  const MatD before = attn::causal_self_attention_forward(s.x, s.w).output.y;
  for (Eigen::Index t = 0; t + 1 < s.x.rows(); ++t) {
    MatD changed = s.x;
    changed.bottomRows(s.x.rows() - t - 1) +=
        test::random_d(static_cast<int>(s.x.rows() - t - 1), 8, 40 + static_cast<int>(t));
    const MatD after = attn::causal_self_attention_forward(changed, s.w).output.y;
    INFO("inputs changed after position " << t);
    CHECK(after.topRows(t + 1) == before.topRows(t + 1));         // bit for bit
    CHECK((after.row(t + 1) - before.row(t + 1)).norm() > 1e-6);  // the next one does change
  }
}

TEST_CASE("causal self-attention: one head equals the formula written out",
          "[causal-self-attention]") {
  MatD x = test::random_d(4, 6, 50);
  auto w = attn::causal_self_attention_weights<double>(6, 1, 51, 1.0, "attention");
  w.b_q.value = test::random_d(1, 6, 52);
  const MatD q = (x * w.w_q.value).rowwise() + w.b_q.value.row(0);
  const MatD k = x * w.w_k.value, v = x * w.w_v.value;
  MatD scores = q * k.transpose() / std::sqrt(6.0);
  MatD a = MatD::Zero(4, 4);
  for (int t = 0; t < 4; ++t) {
    const double top = scores.row(t).head(t + 1).maxCoeff();
    for (int i = 0; i <= t; ++i) a(t, i) = std::exp(scores(t, i) - top);
    a.row(t) /= a.row(t).sum();
  }
  const MatD expected = a * v * w.w_o.value;
  const auto pass = attn::causal_self_attention_forward(x, w);
  CHECK(pass.weights(0).isApprox(a, 1e-12));
  CHECK(pass.output.y.isApprox(expected, 1e-12));
}

TEST_CASE("causal self-attention: heads that do not divide d_model are refused",
          "[causal-self-attention]") {
  CHECK_THROWS_WITH(attn::causal_self_attention_weights<double>(8, 3, 1, 1.0, "a"),
                    Catch::Contains("3 heads for d_model = 8"));
  CHECK_THROWS_WITH(attn::causal_self_attention_weights<double>(8, 0, 1, 1.0, "a"),
                    Catch::Contains("heads must be at least 1"));
}

TEST_CASE("causal self-attention: the last rows after past keys and values are the whole's rows",
          "[causal-self-attention]") {
  AttentionSetup s;
  const auto whole = attn::causal_self_attention_forward(s.x, s.w);
  // Positions 0..2 as the past, positions 3 and 4 computed.
  attn::PastKeysValues<double> past{whole.key.y.topRows(3), whole.value.y.topRows(3)};
  const auto last = attn::causal_self_attention_forward<double>(
      s.x.bottomRows(2), s.w, attn::OutputRows::every_position, &past);
  // The same up to rounding: the projections' products are Eigen's here, whose order of summing
  // may change with the number of rows (the float ones of a wasm build are not).
  CHECK(last.output.y.isApprox(whole.output.y.bottomRows(2), 1e-13));
  for (int h = 0; h < 4; ++h)
    CHECK(last.weights(h).isApprox(whole.weights(h).bottomRows(2), 1e-13));
  // It cannot go back: the past's rows are not its own.
  CHECK_THROWS_WITH(attn::causal_self_attention_backward(last, MatD(s.r.bottomRows(2)), s.w),
                    Catch::Contains("past keys and values"));
  past.values.conservativeResize(Eigen::NoChange, 6);
  CHECK_THROWS_WITH(attn::causal_self_attention_forward<double>(
                        s.x.bottomRows(2), s.w, attn::OutputRows::every_position, &past),
                    Catch::Contains("d_model = 8 columns"));
}

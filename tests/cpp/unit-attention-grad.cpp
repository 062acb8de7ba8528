#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "attn/attention_grad.hpp"
#include "gradient_check.hpp"
#include "helpers.hpp"

using attn::AttentionGradOptions;
using attn::Scoring;
using test::MatD;
using test::ParamD;

namespace {

// 4 queries over 5 keys, d_k = 3, d_v = 2, the weights r of the loss sum(output * r), and the
// additive scorer's w.
struct AttentionSetup {
  MatD q = test::random_d(4, 3, 11);
  MatD k = test::random_d(5, 3, 12);
  MatD v = test::random_d(5, 2, 13);
  MatD r = test::random_d(4, 2, 14);
  ParamD w{"w", test::random_d(1, 3, 15)};
  AttentionGradOptions options;

  const ParamD* weight() const { return options.scoring == Scoring::additive ? &w : nullptr; }
  attn::AttentionPass<double> forward() const {
    return attn::attention_forward<double>(q, k, v, options, weight());
  }
  double loss() const { return test::weighted_sum(forward().output, r); }
};

std::string describe(const AttentionGradOptions& o) {
  std::string text = attn::scoring_name(o.scoring);
  if (o.causal) text += ", causal";
  if (!o.key_padding.empty()) text += ", key padding";
  return text;
}

// Every gradient of one configuration against central differences.
void check_all_gradients(AttentionSetup& s) {
  INFO(describe(s.options));
  const auto pass = s.forward();
  ParamD* w = s.options.scoring == Scoring::additive ? &s.w : nullptr;
  const auto g = attn::attention_backward(pass, s.r, w);
  const auto loss = [&] { return s.loss(); };
  test::check_gradient("dL/dq", s.q, g.dq, loss);
  test::check_gradient("dL/dk", s.k, g.dk, loss);
  test::check_gradient("dL/dv", s.v, g.dv, loss);
  if (w) {
    const MatD dw = s.w.grad;
    test::check_gradient("dL/dw", s.w.value, dw, loss);
  }
}

}  // namespace

TEST_CASE("scaled dot attention: dL/dq, dL/dk and dL/dv match central differences",
          "[attention-grad]") {
  AttentionSetup s;
  s.options.scoring = Scoring::scaled_dot;
  check_all_gradients(s);
}

TEST_CASE("dot attention (no 1/sqrt(d_k)): dL/dq, dL/dk and dL/dv match central differences",
          "[attention-grad]") {
  AttentionSetup s;
  s.options.scoring = Scoring::dot;
  check_all_gradients(s);
}

TEST_CASE("additive attention: dL/dq, dL/dk, dL/dv and dL/dw match central differences",
          "[attention-grad]") {
  AttentionSetup s;
  s.options.scoring = Scoring::additive;
  check_all_gradients(s);
}

TEST_CASE("attention with key padding: gradients match, padded keys and values get exactly 0",
          "[attention-grad]") {
  for (const Scoring scoring : {Scoring::additive, Scoring::dot, Scoring::scaled_dot}) {
    AttentionSetup s;
    s.options.scoring = scoring;
    s.options.key_padding = {0, 1, 0, 0, 1};
    check_all_gradients(s);
    const auto pass = s.forward();
    ParamD* w = scoring == Scoring::additive ? &s.w : nullptr;
    const auto g = attn::attention_backward(pass, s.r, w);
    INFO(attn::scoring_name(scoring));
    for (const int padded : {1, 4}) {
      CHECK(pass.weights.col(padded).isZero(0));
      CHECK(g.dk.row(padded).isZero(0));
      CHECK(g.dv.row(padded).isZero(0));
    }
  }
}

TEST_CASE("attention with a causal mask: gradients match, later keys get no weight",
          "[attention-grad]") {
  for (const Scoring scoring : {Scoring::additive, Scoring::dot, Scoring::scaled_dot}) {
    AttentionSetup s;
    s.q = test::random_d(5, 3, 31);
    s.r = test::random_d(5, 2, 32);
    s.options.scoring = scoring;
    s.options.causal = true;
    s.options.key_padding = {0, 0, 1, 0, 0};
    check_all_gradients(s);
    const auto pass = s.forward();
    INFO(attn::scoring_name(scoring));
    for (int t = 0; t < 5; ++t) {
      for (int i = t + 1; i < 5; ++i) CHECK(pass.weights(t, i) == 0.0);
    }
    // Query 0 sees key 0 only; the last key is seen by the last query alone.
    CHECK(pass.weights(0, 0) == 1.0);
    const auto g =
        attn::attention_backward(pass, s.r, scoring == Scoring::additive ? &s.w : nullptr);
    CHECK(g.dk.row(2).isZero(0));
  }
}

TEST_CASE("causal attention of the last queries alone: the last rows of the whole, bit for bit",
          "[attention-grad]") {
  // 5 positions; the last 2 queries over all 5 keys see what they see in the whole pass, so
  // their rows have the same bits (float, as a reading of the language model computes them).
  const attn::MatrixT<float> q = test::random_d(5, 4, 51).cast<float>(),
                             k = test::random_d(5, 4, 52).cast<float>(),
                             v = test::random_d(5, 3, 53).cast<float>();
  AttentionGradOptions causal;
  causal.causal = true;
  for (const Scoring scoring : {Scoring::dot, Scoring::scaled_dot}) {
    causal.scoring = scoring;
    const auto whole = attn::attention_forward<float>(q, k, v, causal, nullptr);
    const auto last = attn::attention_forward<float>(q.bottomRows(2), k, v, causal, nullptr);
    CHECK(last.weights == whole.weights.bottomRows(2));
    CHECK(last.output == whole.output.bottomRows(2));
    CHECK(last.weights(0, 4) == 0.0f);  // position 3 does not see position 4
  }
}

TEST_CASE("causal attention of the last queries: gradients match central differences",
          "[attention-grad]") {
  for (const Scoring scoring : {Scoring::additive, Scoring::scaled_dot}) {
    AttentionSetup s;
    s.q = test::random_d(3, 3, 61);  // queries at positions 2, 3 and 4 of the 5 keys
    s.r = test::random_d(3, 2, 62);
    s.options.scoring = scoring;
    s.options.causal = true;
    INFO(attn::scoring_name(scoring));
    check_all_gradients(s);
    const auto pass = s.forward();
    CHECK(pass.weights(0, 3) == 0.0);
    CHECK(pass.weights(0, 4) == 0.0);
    CHECK(pass.weights(1, 4) == 0.0);
    CHECK(pass.weights(2, 4) > 0.0);
  }
}

TEST_CASE("additive scores are w . tanh(q_t + k_i)", "[attention-grad]") {
  AttentionSetup s;
  s.options.scoring = Scoring::additive;
  const auto pass = s.forward();
  for (int t = 0; t < 4; ++t) {
    for (int i = 0; i < 5; ++i) {
      const double expected =
          (s.w.value.row(0).array() * (s.q.row(t) + s.k.row(i)).array().tanh()).sum();
      CHECK(pass.scores(t, i) == Approx(expected).epsilon(1e-12));
    }
  }
}

TEST_CASE("attention forward refuses what does not fit, naming it", "[attention-grad]") {
  AttentionSetup s;
  CHECK_THROWS_WITH(
      attn::attention_forward<double>(test::random_d(4, 2, 1), s.k, s.v, s.options, nullptr),
      Catch::Contains("q is 4x2 and k is 5x3"));
  CHECK_THROWS_WITH(
      attn::attention_forward<double>(s.q, s.k, test::random_d(4, 2, 1), s.options, nullptr),
      Catch::Contains("k is 5x3 and v is 4x2"));
  AttentionGradOptions additive;
  additive.scoring = Scoring::additive;
  CHECK_THROWS_WITH(attn::attention_forward<double>(s.q, s.k, s.v, additive, nullptr),
                    Catch::Contains("additive scoring needs its weight w"));
  CHECK_THROWS_WITH(attn::attention_forward<double>(s.q, s.k, s.v, s.options, &s.w),
                    Catch::Contains("scaled_dot scoring has no weight"));
  ParamD wide{"w_score", test::random_d(1, 4, 1)};
  CHECK_THROWS_WITH(attn::attention_forward<double>(s.q, s.k, s.v, additive, &wide),
                    Catch::Contains("w_score is 1x4 but must be 1x3"));
  AttentionGradOptions padded;
  padded.key_padding = {1, 1};
  CHECK_THROWS_WITH(attn::attention_forward<double>(s.q, s.k, s.v, padded, nullptr),
                    Catch::Contains("key_padding has 2 flags but there are 5 keys"));
  padded.key_padding = {1, 1, 1, 1, 1};
  CHECK_THROWS_WITH(attn::attention_forward<double>(s.q, s.k, s.v, padded, nullptr),
                    Catch::Contains("key_padding marks all 5 keys as padding"));
  padded.key_padding = {1, 1, 0, 0, 0};
  padded.causal = true;
  CHECK_THROWS_WITH(attn::attention_forward<double>(s.q, s.k, s.v, padded, nullptr),
                    Catch::Contains("query 0 has no visible key"));
  AttentionGradOptions causal;
  causal.causal = true;
  CHECK_THROWS_WITH(
      attn::attention_forward<double>(test::random_d(6, 3, 9), s.k, s.v, causal, nullptr),
      Catch::Contains("a causal mask needs at most as many queries as keys"));
  MatD bad = s.q;
  bad(1, 1) = std::nan("");
  CHECK_THROWS_WITH(attn::attention_forward<double>(bad, s.k, s.v, s.options, nullptr),
                    Catch::Contains("q contains NaN"));
}

TEST_CASE("heads side by side are each head on its own columns, forward and backward",
          "[attention-grad]") {
  // 4 queries over 4 keys, d = 6 in 3 heads of d_k = 2, causal off and on.
  const MatD q = test::random_d(4, 6, 31), k = test::random_d(4, 6, 32);
  const MatD v = test::random_d(4, 6, 33), d_out = test::random_d(4, 6, 34);
  for (const bool causal : {false, true}) {
    AttentionGradOptions options;
    options.causal = causal;
    const attn::HeadsPass<double> pass = attn::heads_forward<double>(q, k, v, 3, options);
    REQUIRE(pass.heads.size() == 3);
    const attn::AttentionGradients<double> g = attn::heads_backward<double>(pass.heads, d_out);
    for (int j = 0; j < 3; ++j) {
      const attn::AttentionPass<double> alone = attn::attention_forward<double>(
          q.middleCols(2 * j, 2), k.middleCols(2 * j, 2), v.middleCols(2 * j, 2), options, nullptr);
      const attn::AttentionGradients<double> alone_g =
          attn::attention_backward<double>(alone, d_out.middleCols(2 * j, 2), nullptr);
      INFO("head " << j << (causal ? ", causal" : ""));
      CHECK(pass.heads[static_cast<size_t>(j)].weights == alone.weights);
      CHECK(pass.output.middleCols(2 * j, 2) == alone.output);
      CHECK(g.dq.middleCols(2 * j, 2) == alone_g.dq);
      CHECK(g.dk.middleCols(2 * j, 2) == alone_g.dk);
      CHECK(g.dv.middleCols(2 * j, 2) == alone_g.dv);
    }
  }
  AttentionGradOptions additive;
  additive.scoring = Scoring::additive;
  CHECK_THROWS_WITH(attn::heads_forward<double>(q, k, v, 4, {}),
                    Catch::Contains("positive divisor"));
  CHECK_THROWS_WITH(attn::heads_forward<double>(q, k, v, 0, {}),
                    Catch::Contains("positive divisor"));
  CHECK_THROWS_WITH(attn::heads_forward<double>(q, k.leftCols(4), v, 3, {}),
                    Catch::Contains("same width"));
  CHECK_THROWS_WITH(attn::heads_forward<double>(q, k, v, 3, additive),
                    Catch::Contains("not additive"));
}

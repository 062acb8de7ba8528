#include <catch2/catch.hpp>
#include <cmath>

#include "attn/attention_layer.hpp"
#include "gradient_check.hpp"

using test::MatD;

namespace {

using Weights = attn::AttentionLayerWeights<double>;

std::vector<attn::Parameter<double>*> all(Weights& w) { return w.parameters(); }

// d_model 8 with 4 heads (d_k 2) on 5 positions; every bias moved off 0. The mask is causal
// unless a test sets another.
struct AttentionSetup {
  MatD x = test::random_d(5, 8, 31);
  Weights w = attn::attention_layer_weights<double>(8, 4, 32, 1.0, "attention");
  MatD r = test::random_d(5, 8, 33);
  attn::SelfAttentionMask mask = attn::causal_mask();

  AttentionSetup() {
    std::uint64_t seed = 34;
    for (attn::Parameter<double>* p : all(w)) {
      if (p->value.rows() == 1) p->value = test::random_d(1, 8, seed++) * 0.5;
    }
  }
  double loss() const {
    return test::weighted_sum(attn::self_attention_forward(x, w, mask).output.y, r);
  }
};

// An encoder's mask: no causal mask, positions 3 and 4 of 5 padded.
attn::SelfAttentionMask padded_mask() { return {false, {0, 0, 0, 1, 1}}; }

// Cross-attention of 4 decoder states over 6 encoder positions, the last two padded: d_model 8
// with 2 heads (d_k 4); every bias moved off 0.
struct CrossSetup {
  MatD decoder = test::random_d(4, 8, 131);
  MatD encoder = test::random_d(6, 8, 132);
  attn::KeyPadding padding{0, 0, 0, 0, 1, 1};
  Weights w = attn::attention_layer_weights<double>(8, 2, 133, 1.0, "cross_attention");
  MatD r = test::random_d(4, 8, 134);

  CrossSetup() {
    std::uint64_t seed = 135;
    for (attn::Parameter<double>* p : all(w)) {
      if (p->value.rows() == 1) p->value = test::random_d(1, 8, seed++) * 0.5;
    }
  }
  attn::AttentionLayerPass<double> forward() const {
    return attn::cross_attention_forward(decoder, encoder, w, padding);
  }
  double loss() const { return test::weighted_sum(forward().output.y, r); }
};

// Checks the pass's `heads` heads' weights: each (rows, cols), every row a distribution whose entry
// (t, i) is above 0 where visible(t, i) and exactly 0 elsewhere.
template <typename Pass, typename Visible>
void check_head_weights(const Pass& pass, int heads, Eigen::Index rows, Eigen::Index cols,
                        Visible visible) {
  REQUIRE(pass.heads.size() == static_cast<size_t>(heads));
  for (int j = 0; j < heads; ++j) {
    INFO("head " << j);
    const MatD& a = pass.weights(j);
    REQUIRE(a.rows() == rows);
    REQUIRE(a.cols() == cols);
    for (Eigen::Index t = 0; t < rows; ++t) {
      CHECK(a.row(t).sum() == Approx(1.0).epsilon(1e-12));
      for (Eigen::Index i = 0; i < cols; ++i) {
        if (visible(t, i)) {
          CHECK(a(t, i) > 0.0);
        } else {
          CHECK(a(t, i) == 0.0);  // exactly
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("causal self-attention: dL/dx matches central differences", "[attention-layer]") {
  AttentionSetup s;
  const auto pass = attn::self_attention_forward(s.x, s.w, attn::causal_mask());
  const MatD dx = attn::self_attention_backward(pass, s.r, s.w);
  test::check_gradient("dL/dx", s.x, dx, [&] { return s.loss(); });
}

TEST_CASE("causal self-attention: every weight's gradient matches central differences",
          "[attention-layer]") {
  AttentionSetup s;
  const auto pass = attn::self_attention_forward(s.x, s.w, attn::causal_mask());
  attn::self_attention_backward(pass, s.r, s.w);
  test::check_parameter_gradients(all(s.w), [&] { return s.loss(); });
}

TEST_CASE(
    "causal self-attention: each head's weights are rows of a distribution, 0 above the "
    "diagonal",
    "[attention-layer]") {
  AttentionSetup s;
  const auto pass = attn::self_attention_forward(s.x, s.w, attn::causal_mask());
  check_head_weights(pass, 4, 5, 5, [](Eigen::Index t, Eigen::Index i) { return i <= t; });
}

TEST_CASE("causal self-attention: position t's output does not change when later inputs do",
          "[attention-layer]") {
  AttentionSetup s;
  const MatD before = attn::self_attention_forward(s.x, s.w, attn::causal_mask()).output.y;
  for (Eigen::Index t = 0; t + 1 < s.x.rows(); ++t) {
    MatD changed = s.x;
    changed.bottomRows(s.x.rows() - t - 1) +=
        test::random_d(static_cast<int>(s.x.rows() - t - 1), 8, 40 + static_cast<int>(t));
    const MatD after = attn::self_attention_forward(changed, s.w, attn::causal_mask()).output.y;
    INFO("inputs changed after position " << t);
    CHECK(after.topRows(t + 1) == before.topRows(t + 1));         // bit for bit
    CHECK((after.row(t + 1) - before.row(t + 1)).norm() > 1e-6);  // the next one does change
  }
}

TEST_CASE("causal self-attention: one head equals the formula written out", "[attention-layer]") {
  MatD x = test::random_d(4, 6, 50);
  auto w = attn::attention_layer_weights<double>(6, 1, 51, 1.0, "attention");
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
  const auto pass = attn::self_attention_forward(x, w, attn::causal_mask());
  CHECK(pass.weights(0).isApprox(a, 1e-12));
  CHECK(pass.output.y.isApprox(expected, 1e-12));
}

TEST_CASE("causal self-attention: heads that do not divide d_model are refused",
          "[attention-layer]") {
  CHECK_THROWS_WITH(attn::attention_layer_weights<double>(8, 3, 1, 1.0, "a"),
                    Catch::Contains("3 heads for d_model = 8"));
  CHECK_THROWS_WITH(attn::attention_layer_weights<double>(8, 0, 1, 1.0, "a"),
                    Catch::Contains("heads must be at least 1"));
}

TEST_CASE("causal self-attention: the last rows after past keys and values are the whole's rows",
          "[attention-layer]") {
  AttentionSetup s;
  const auto whole = attn::self_attention_forward(s.x, s.w, attn::causal_mask());
  // Positions 0..2 as the past, positions 3 and 4 computed.
  attn::PastKeysValues<double> past{whole.key.y.topRows(3), whole.value.y.topRows(3)};
  const auto last = attn::self_attention_forward<double>(
      s.x.bottomRows(2), s.w, attn::causal_mask(), attn::OutputRows::every_position, &past);
  // The same up to rounding: the projections' products are Eigen's here, whose order of summing
  // may change with the number of rows (the float ones of a wasm build are not).
  CHECK(last.output.y.isApprox(whole.output.y.bottomRows(2), 1e-13));
  for (int h = 0; h < 4; ++h)
    CHECK(last.weights(h).isApprox(whole.weights(h).bottomRows(2), 1e-13));
  // It cannot go back: the past's rows are not its own.
  CHECK_THROWS_WITH(attn::self_attention_backward(last, MatD(s.r.bottomRows(2)), s.w),
                    Catch::Contains("past keys and values"));
  past.values.conservativeResize(Eigen::NoChange, 6);
  CHECK_THROWS_WITH(
      attn::self_attention_forward<double>(s.x.bottomRows(2), s.w, attn::causal_mask(),
                                           attn::OutputRows::every_position, &past),
      Catch::Contains("d_model = 8 columns"));
}

TEST_CASE("self-attention without the causal mask, with key padding: gradients match",
          "[attention-layer]") {
  AttentionSetup s;
  s.mask = padded_mask();
  const auto pass = attn::self_attention_forward(s.x, s.w, s.mask);
  const MatD dx = attn::self_attention_backward(pass, s.r, s.w);
  test::check_gradient("dL/dx", s.x, dx, [&] { return s.loss(); });
  test::check_parameter_gradients(all(s.w), [&] { return s.loss(); });
}

TEST_CASE(
    "self-attention without the causal mask: every position sees every unpadded one, no "
    "padded one",
    "[attention-layer]") {
  AttentionSetup s;
  const auto pass = attn::self_attention_forward(s.x, s.w, padded_mask());
  check_head_weights(pass, 4, 5, 5, [](Eigen::Index, Eigen::Index i) { return i < 3; });
  // A padded position's input reaches only its own output row (its query), bit for bit.
  MatD changed = s.x;
  changed.row(4) += test::random_d(1, 8, 140);
  const auto after = attn::self_attention_forward(changed, s.w, padded_mask());
  CHECK(after.output.y.topRows(4) == pass.output.y.topRows(4));
  // Without padding and without the causal mask, the first row sees the last position.
  const auto unmasked = attn::self_attention_forward(s.x, s.w, attn::SelfAttentionMask{});
  changed = s.x;
  changed.row(4) += test::random_d(1, 8, 141);
  const auto unmasked_after = attn::self_attention_forward(changed, s.w, attn::SelfAttentionMask{});
  CHECK((unmasked_after.output.y.row(0) - unmasked.output.y.row(0)).norm() > 1e-6);
}

TEST_CASE("self-attention: padding of the wrong length, or over every key, is refused",
          "[attention-layer]") {
  AttentionSetup s;
  CHECK_THROWS_WITH(attn::self_attention_forward(s.x, s.w, {false, {0, 0, 1}}),
                    Catch::Contains("key_padding has 3 flags but there are 5 keys"));
  CHECK_THROWS_WITH(attn::self_attention_forward(s.x, s.w, {false, {1, 1, 1, 1, 1}}),
                    Catch::Contains("marks all 5 keys as padding"));
  const attn::PastKeysValues<double> past{test::random_d(2, 8, 142), test::random_d(2, 8, 143)};
  CHECK_THROWS_WITH(
      attn::self_attention_forward(s.x, s.w, padded_mask(), attn::OutputRows::every_position,
                                   &past),
      Catch::Contains("past keys and values need the causal mask and no key padding"));
}

TEST_CASE("cross-attention with encoder padding: every gradient matches central differences",
          "[attention-layer]") {
  CrossSetup s;
  const auto pass = s.forward();
  const auto g = attn::cross_attention_backward(pass, s.r, s.w);
  test::check_gradient("dL/d(decoder states)", s.decoder, g.d_decoder_states,
                       [&] { return s.loss(); });
  test::check_gradient("dL/d(encoder output)", s.encoder, g.d_encoder_output,
                       [&] { return s.loss(); });
  test::check_parameter_gradients(all(s.w), [&] { return s.loss(); });
  // The padded encoder positions are never read: exactly no gradient.
  CHECK(g.d_encoder_output.bottomRows(2).cwiseAbs().maxCoeff() == 0.0);
  CHECK(g.d_encoder_output.topRows(4).cwiseAbs().minCoeff() > 0.0);
}

TEST_CASE("cross-attention: every head's (T_dec, T_enc) weights, 0 on padded positions",
          "[attention-layer]") {
  CrossSetup s;
  const auto pass = s.forward();
  REQUIRE(pass.output.y.rows() == 4);
  REQUIRE(pass.output.y.cols() == 8);
  check_head_weights(pass, 2, 4, 6, [](Eigen::Index, Eigen::Index i) { return i < 4; });
  // What a padded encoder position holds changes nothing.
  CrossSetup changed;
  changed.encoder.bottomRows(2) = test::random_d(2, 8, 150);
  CHECK(changed.forward().output.y == pass.output.y);
}

TEST_CASE("cross-attention: one head equals the formula written out", "[attention-layer]") {
  const MatD decoder = test::random_d(3, 6, 160), encoder = test::random_d(5, 6, 161);
  auto w = attn::attention_layer_weights<double>(6, 1, 162, 1.0, "cross_attention");
  w.b_q.value = test::random_d(1, 6, 163);
  w.b_v.value = test::random_d(1, 6, 164);
  const attn::KeyPadding padding{0, 0, 0, 0, 1};
  const MatD q = (decoder * w.w_q.value).rowwise() + w.b_q.value.row(0);
  const MatD k = encoder * w.w_k.value;
  const MatD v = (encoder * w.w_v.value).rowwise() + w.b_v.value.row(0);
  const MatD scores = q * k.transpose() / std::sqrt(6.0);
  MatD a = MatD::Zero(3, 5);
  for (int t = 0; t < 3; ++t) {
    const double top = scores.row(t).head(4).maxCoeff();
    for (int i = 0; i < 4; ++i) a(t, i) = std::exp(scores(t, i) - top);
    a.row(t) /= a.row(t).sum();
  }
  const MatD expected = a * v * w.w_o.value;
  const auto pass = attn::cross_attention_forward(decoder, encoder, w, padding);
  CHECK(pass.weights(0).isApprox(a, 1e-12));
  CHECK(pass.output.y.isApprox(expected, 1e-12));
}

TEST_CASE("cross-attention: widths and padding that do not fit are refused", "[attention-layer]") {
  CrossSetup s;
  CHECK_THROWS_WITH(
      attn::cross_attention_forward(s.decoder, MatD(s.encoder.leftCols(6)), s.w, s.padding),
      Catch::Contains("both need d_model = 8 columns"));
  CHECK_THROWS_WITH(attn::cross_attention_forward(s.decoder, s.encoder, s.w, {0, 0, 1}),
                    Catch::Contains("key_padding has 3 flags but there are 6 keys"));
  CHECK_THROWS_WITH(attn::cross_attention_forward(s.decoder, s.encoder, s.w, {1, 1, 1, 1, 1, 1}),
                    Catch::Contains("marks all 6 keys as padding"));
}

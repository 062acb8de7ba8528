#include <catch2/catch.hpp>

#include "attn/decoder_block.hpp"
#include "gradient_check.hpp"

using test::MatD;

namespace {

// d_model 8, 2 heads, MLP width 32, on 6 positions; every parameter moved off its initial value
// (biases 0, gains 1) so that each one's gradient is exercised in general position.
struct BlockSetup {
  MatD x = test::random_d(6, 8, 61);
  attn::DecoderBlockWeights<double> w =
      attn::decoder_block_weights<double>(8, 2, 32, 62, 0.5, "block0");
  MatD r = test::random_d(6, 8, 63);

  BlockSetup() {
    std::uint64_t seed = 64;
    for (attn::Parameter<double>* p : w.parameters()) {
      p->value += test::random_d(static_cast<int>(p->value.rows()),
                                 static_cast<int>(p->value.cols()), seed++) *
                  0.2;
    }
  }
  double loss() const { return test::weighted_sum(attn::decoder_block_forward(x, w).y(), r); }
};

}  // namespace

TEST_CASE("decoder block: dL/dx matches central differences", "[decoder-block]") {
  BlockSetup s;
  const auto pass = attn::decoder_block_forward(s.x, s.w);
  const MatD dx = attn::decoder_block_backward(pass, s.r, s.w);
  test::check_gradient("dL/dx", s.x, dx, [&] { return s.loss(); });
}

TEST_CASE("decoder block: all 16 parameters' gradients match central differences",
          "[decoder-block]") {
  BlockSetup s;
  const auto pass = attn::decoder_block_forward(s.x, s.w);
  attn::decoder_block_backward(pass, s.r, s.w);
  const auto params = s.w.parameters();
  REQUIRE(params.size() == 16);
  test::check_parameter_gradients(params, [&] { return s.loss(); });
}

TEST_CASE("decoder block: y = h + mlp(norm2(h)) with h = x + attention(norm1(x))",
          "[decoder-block]") {
  BlockSetup s;
  const auto pass = attn::decoder_block_forward(s.x, s.w);
  const auto norm1 = attn::layer_norm_forward(s.x, s.w.norm1);
  const auto attention = attn::self_attention_forward(norm1.y, s.w.attention, attn::causal_mask());
  const MatD h = s.x + attention.output.y;
  const auto mlp = attn::mlp_forward(attn::layer_norm_forward(h, s.w.norm2).y, s.w.mlp);
  CHECK(pass.self_attention.y == h);
  CHECK(pass.y() == h + mlp.output.y);
}

TEST_CASE("decoder block: position t's output does not change when later inputs do",
          "[decoder-block]") {
  BlockSetup s;
  const MatD before = attn::decoder_block_forward(s.x, s.w).y();
  MatD changed = s.x;
  changed.bottomRows(3) = test::random_d(3, 8, 90);
  const MatD after = attn::decoder_block_forward(changed, s.w).y();
  CHECK(after.topRows(3) == before.topRows(3));
  CHECK((after.row(3) - before.row(3)).norm() > 1e-6);
}

TEST_CASE("decoder block: parameters are named by block and sublayer", "[decoder-block]") {
  BlockSetup s;
  const auto params = s.w.parameters();
  CHECK(params.front()->name == "block0.norm1.gain");
  CHECK(params[2]->name == "block0.attention.W_q");
  CHECK(params.back()->name == "block0.mlp.b_2");
}

TEST_CASE("decoder block: the last row alone is the full pass's last row, and cannot go back",
          "[decoder-block]") {
  BlockSetup s;
  const auto all = attn::decoder_block_forward(s.x, s.w);
  const auto last = attn::decoder_block_forward(s.x, s.w, attn::OutputRows::last_position);
  REQUIRE(last.y().rows() == 1);
  CHECK(last.y().isApprox(all.y().bottomRows(1), 1e-12));
  for (int head = 0; head < 2; ++head) {
    CHECK(last.weights(head) == all.weights(head));
  }
  const MatD dy_last = s.r.bottomRows(1);
  CHECK_THROWS_WITH(attn::decoder_block_backward(last, dy_last, s.w),
                    Catch::Contains("only a pass of every row can go back"));
  CHECK_THROWS_WITH(
      attn::self_attention_backward(last.self_attention.attention, dy_last, s.w.attention),
      Catch::Contains("only a pass of every row can go back"));
}

#include <catch2/catch.hpp>

#include "attn/encoder_block.hpp"
#include "gradient_check.hpp"

using test::MatD;

namespace {

// d_model 8, 2 heads, MLP width 32, on 6 positions of which the last two are padding; every
// parameter moved off its initial value (biases 0, gains 1) so that each one's gradient is
// exercised in general position.
struct BlockSetup {
  MatD x = test::random_d(6, 8, 261);
  attn::KeyPadding padding{0, 0, 0, 0, 1, 1};
  attn::EncoderBlockWeights<double> w =
      attn::encoder_block_weights<double>(8, 2, 32, 262, 0.5, "encoder0");
  MatD r = test::random_d(6, 8, 263);

  BlockSetup() {
    std::uint64_t seed = 264;
    for (attn::Parameter<double>* p : w.parameters()) {
      p->value += test::random_d(static_cast<int>(p->value.rows()),
                                 static_cast<int>(p->value.cols()), seed++) *
                  0.2;
    }
  }
  attn::EncoderBlockPass<double> forward() const {
    return attn::encoder_block_forward(x, w, padding);
  }
  double loss() const { return test::weighted_sum(forward().y(), r); }
};

}  // namespace

TEST_CASE("encoder block with padding: dL/dx matches central differences", "[encoder-block]") {
  BlockSetup s;
  const auto pass = s.forward();
  const MatD dx = attn::encoder_block_backward(pass, s.r, s.w);
  test::check_gradient("dL/dx", s.x, dx, [&] { return s.loss(); });
}

TEST_CASE("encoder block with padding: all 16 parameters' gradients match central differences",
          "[encoder-block]") {
  BlockSetup s;
  const auto pass = s.forward();
  attn::encoder_block_backward(pass, s.r, s.w);
  const auto params = s.w.parameters();
  REQUIRE(params.size() == 16);
  test::check_parameter_gradients(params, [&] { return s.loss(); });
}

TEST_CASE("encoder block: y = h + mlp(norm2(h)) with h = x + unmasked attention(norm1(x))",
          "[encoder-block]") {
  BlockSetup s;
  const auto pass = s.forward();
  const auto norm1 = attn::layer_norm_forward(s.x, s.w.norm1);
  const auto attention = attn::self_attention_forward(norm1.y, s.w.attention,
                                                      attn::SelfAttentionMask{false, s.padding});
  const MatD h = s.x + attention.output.y;
  const auto mlp = attn::mlp_forward(attn::layer_norm_forward(h, s.w.norm2).y, s.w.mlp);
  CHECK(pass.self_attention.y == h);
  CHECK(pass.y() == h + mlp.output.y);
  for (int head = 0; head < 2; ++head) {
    CHECK(pass.weights(head).rightCols(2).cwiseAbs().maxCoeff() == 0.0);  // padded: exactly 0
    CHECK(pass.weights(head).leftCols(4).minCoeff() > 0.0);  // earlier and later positions alike
  }
}

TEST_CASE("encoder block: a padded position's input reaches only its own output row",
          "[encoder-block]") {
  BlockSetup s;
  const MatD before = s.forward().y();
  BlockSetup changed;
  changed.x.row(5) = test::random_d(1, 8, 290);
  const MatD after = changed.forward().y();
  CHECK(after.topRows(5) == before.topRows(5));
  CHECK((after.row(5) - before.row(5)).norm() > 1e-6);
  // An unpadded position's input reaches every row, earlier ones included.
  changed.x = s.x;
  changed.x.row(3) += test::random_d(1, 8, 291);
  CHECK((changed.forward().y().row(0) - before.row(0)).norm() > 1e-6);
}

TEST_CASE("encoder block: parameters are named by block and sublayer; bad padding is refused",
          "[encoder-block]") {
  BlockSetup s;
  const auto params = s.w.parameters();
  CHECK(params.front()->name == "encoder0.norm1.gain");
  CHECK(params[2]->name == "encoder0.attention.W_q");
  CHECK(params.back()->name == "encoder0.mlp.b_2");
  CHECK_THROWS_WITH(attn::encoder_block_forward(s.x, s.w, {0, 1}),
                    Catch::Contains("key_padding has 2 flags but there are 6 keys"));
}

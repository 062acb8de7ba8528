#include <catch2/catch.hpp>

#include "attn/cross_decoder_block.hpp"
#include "gradient_check.hpp"

using test::MatD;

namespace {

// d_model 8, 2 heads, MLP width 16; 5 decoder positions over 6 encoder positions of which the
// last two are padding. Every parameter moved off its initial value (biases 0, gains 1) so that
// each one's gradient is exercised in general position.
struct BlockSetup {
  MatD x = test::random_d(5, 8, 361);
  MatD encoder = test::random_d(6, 8, 362);
  attn::KeyPadding padding{0, 0, 0, 0, 1, 1};
  attn::CrossDecoderBlockWeights<double> w =
      attn::cross_decoder_block_weights<double>(8, 2, 16, 363, 0.5, "decoder0");
  MatD r = test::random_d(5, 8, 364);

  BlockSetup() {
    std::uint64_t seed = 365;
    for (attn::Parameter<double>* p : w.parameters()) {
      p->value += test::random_d(static_cast<int>(p->value.rows()),
                                 static_cast<int>(p->value.cols()), seed++) *
                  0.2;
    }
  }
  attn::CrossDecoderBlockPass<double> forward() const {
    return attn::cross_decoder_block_forward(x, encoder, w, padding);
  }
  double loss() const { return test::weighted_sum(forward().y(), r); }
};

}  // namespace

TEST_CASE("decoder block with cross-attention: dL/dx and dL/d(encoder) match central differences",
          "[cross-decoder-block]") {
  BlockSetup s;
  const auto pass = s.forward();
  const auto g = attn::cross_decoder_block_backward(pass, s.r, s.w);
  test::check_gradient("dL/dx", s.x, g.dx, [&] { return s.loss(); });
  test::check_gradient("dL/d(encoder output)", s.encoder, g.d_encoder_output,
                       [&] { return s.loss(); });
  CHECK(g.d_encoder_output.bottomRows(2).cwiseAbs().maxCoeff() == 0.0);  // padded: exactly 0
}

TEST_CASE("decoder block with cross-attention: all 26 parameters' gradients match",
          "[cross-decoder-block]") {
  BlockSetup s;
  const auto pass = s.forward();
  attn::cross_decoder_block_backward(pass, s.r, s.w);
  const auto params = s.w.parameters();
  REQUIRE(params.size() == 26);
  test::check_parameter_gradients(params, [&] { return s.loss(); });
}

TEST_CASE("decoder block with cross-attention: the three sublayers, written out",
          "[cross-decoder-block]") {
  BlockSetup s;
  const auto pass = s.forward();
  const auto self = attn::self_attention_forward(attn::layer_norm_forward(s.x, s.w.norm1).y,
                                                 s.w.self_attention, attn::causal_mask());
  const MatD h1 = s.x + self.output.y;
  const auto cross = attn::cross_attention_forward(attn::layer_norm_forward(h1, s.w.norm2).y,
                                                   s.encoder, s.w.cross_attention, s.padding);
  const MatD h2 = h1 + cross.output.y;
  const auto mlp = attn::mlp_forward(attn::layer_norm_forward(h2, s.w.norm3).y, s.w.mlp);
  CHECK(pass.self_attention.y == h1);
  CHECK(pass.cross_attention.y == h2);
  CHECK(pass.y() == h2 + mlp.output.y);
  for (int head = 0; head < 2; ++head) {
    const MatD& a = pass.cross_weights(head);
    REQUIRE(a.rows() == 5);
    REQUIRE(a.cols() == 6);
    CHECK(a == cross.weights(head));
    CHECK(a.rightCols(2).cwiseAbs().maxCoeff() == 0.0);
  }
}

TEST_CASE("decoder block with cross-attention: position t sees the decoder's 0..t alone",
          "[cross-decoder-block]") {
  BlockSetup s;
  const MatD before = s.forward().y();
  BlockSetup changed;
  changed.x.bottomRows(2) = test::random_d(2, 8, 390);
  const MatD after = changed.forward().y();
  CHECK(after.topRows(3) == before.topRows(3));
  CHECK((after.row(3) - before.row(3)).norm() > 1e-6);
  // Every position reads the whole unpadded encoder output, and nothing of its padding.
  changed.x = s.x;
  changed.encoder.bottomRows(2) = test::random_d(2, 8, 391);
  CHECK(changed.forward().y() == before);
  changed.encoder.row(3) += test::random_d(1, 8, 392);
  CHECK((changed.forward().y().row(0) - before.row(0)).norm() > 1e-6);
}

TEST_CASE("decoder block with cross-attention: parameters are named by block and sublayer",
          "[cross-decoder-block]") {
  BlockSetup s;
  const auto params = s.w.parameters();
  CHECK(params.front()->name == "decoder0.norm1.gain");
  CHECK(params[2]->name == "decoder0.self_attention.W_q");
  CHECK(params[10]->name == "decoder0.norm2.gain");
  CHECK(params[12]->name == "decoder0.cross_attention.W_q");
  CHECK(params[19]->name == "decoder0.cross_attention.b_o");
  CHECK(params[20]->name == "decoder0.norm3.gain");
  CHECK(params.back()->name == "decoder0.mlp.b_2");
  CHECK_THROWS_WITH(attn::cross_decoder_block_forward(s.x, MatD(s.encoder.leftCols(4)), s.w, {}),
                    Catch::Contains("both need d_model = 8 columns"));
}

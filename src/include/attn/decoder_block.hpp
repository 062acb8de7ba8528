// One decoder block of a GPT-style transformer, forward and backward: the language model's block,
// with no cross-attention. A template on the scalar (float and double, instantiated in
// decoder_block.cpp); conventions as in layers.hpp.
//
// For x: (n, d_model), pre-layer-norm (the default, the language model's):
//   h = x + CausalSelfAttention(LayerNorm_1(x))     (n, d_model)
//   y = h + MLP(LayerNorm_2(h))                      (n, d_model)
// or post-layer-norm (norm_place = NormPlace::post):
//   h = LayerNorm_1(x + CausalSelfAttention(x))     (n, d_model)
//   y = LayerNorm_2(h + MLP(h))                      (n, d_model)
// Two of residual_sublayers.hpp's sublayers, one after the other. The encoder block
// (encoder_block.hpp) is the same block with another mask.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attn/attention_layer.hpp"
#include "attn/layer_norm.hpp"
#include "attn/mlp.hpp"
#include "attn/residual_sublayers.hpp"

namespace attn {

template <typename T>
struct DecoderBlockWeights {
  LayerNormWeights<T> norm1;
  AttentionLayerWeights<T> attention;
  LayerNormWeights<T> norm2;
  MlpWeights<T> mlp;
  NormPlace norm_place = NormPlace::pre;  // where both sublayers' norms sit; not a parameter

  // Every parameter, in a fixed order: norm1, attention (W_q, b_q, ..., b_o), norm2, mlp.
  std::vector<Parameter<T>*> parameters();

  // Names them "<prefix>.norm1.gain", "<prefix>.attention.W_q", ..., "<prefix>.mlp.b_2".
  void name(const std::string& prefix) {
    norm1.name(prefix + ".norm1");
    attention.name(prefix + ".attention");
    norm2.name(prefix + ".norm2");
    mlp.name(prefix + ".mlp");
  }
};

// Seeded weights named "<prefix>.norm1.gain", "<prefix>.attention.W_q", ...; output_scale
// multiplies the two projections that write into the residual stream (W_o and W_2). The place of
// the norms draws nothing: both places get the same numbers from a seed.
template <typename T>
DecoderBlockWeights<T> decoder_block_weights(int d_model, int heads, int d_mlp, std::uint64_t seed,
                                             double output_scale, const std::string& prefix,
                                             NormPlace norm_place = NormPlace::pre);

// Rows below: n for OutputRows::every_position, 1 for last_position.
template <typename T>
struct DecoderBlockPass {
  AttentionSublayerPass<T> self_attention;  // h: (rows, d_model) x + attention, weights (n, n)
  MlpSublayerPass<T> mlp;                   // y: (rows, d_model) h + mlp
  const MatrixT<T>& y() const { return mlp.y; }
  // Head j's attention weights: (n, n), or (n, p + n) after a past.
  const MatrixT<T>& weights(int head) const { return self_attention.attention.weights(head); }
};

// x: (n, d_model) -> y: (n, d_model), or (1, d_model) for the last row alone (every head's
// weights are whole either way), with the norms where w.norm_place says. With the past keys and
// values of p positions, x's rows stand at positions p .. p + n - 1 (self_attention_forward). Only
// a pass of every row and no past can go back through decoder_block_backward.
template <typename T>
DecoderBlockPass<T> decoder_block_forward(const MatrixT<T>& x, const DecoderBlockWeights<T>& w,
                                          OutputRows rows = OutputRows::every_position,
                                          const PastKeysValues<T>* past = nullptr);

// dy: (n, d_model) -> dx: (n, d_model); adds every weight's gradient into its grad.
template <typename T>
MatrixT<T> decoder_block_backward(const DecoderBlockPass<T>& pass, const MatrixT<T>& dy,
                                  DecoderBlockWeights<T>& w);

}  // namespace attn

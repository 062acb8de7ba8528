// One pre-layer-norm decoder block of a GPT-style transformer, forward and backward. A template
// on the scalar (float and double, instantiated in decoder_block.cpp); conventions as in
// layers.hpp.
//
// For x: (n, d_model):
//   h = x + CausalSelfAttention(LayerNorm_1(x))     (n, d_model)
//   y = h + MLP(LayerNorm_2(h))                      (n, d_model)
// Each sublayer reads a normalised copy of the residual stream and adds its result to it, so the
// identity path from x to y is never scaled: gradients reach early blocks undiminished.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attn/causal_self_attention.hpp"
#include "attn/layer_norm.hpp"
#include "attn/mlp.hpp"

namespace attn {

template <typename T>
struct DecoderBlockWeights {
  LayerNormWeights<T> norm1;
  CausalSelfAttentionWeights<T> attention;
  LayerNormWeights<T> norm2;
  MlpWeights<T> mlp;

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
// multiplies the two projections that write into the residual stream (W_o and W_2).
template <typename T>
DecoderBlockWeights<T> decoder_block_weights(int d_model, int heads, int d_mlp, std::uint64_t seed,
                                             double output_scale, const std::string& prefix);

// Rows below: n for OutputRows::every_position, 1 for last_position.
template <typename T>
struct DecoderBlockPass {
  LayerNormPass<T> norm1;                // (n, d_model)
  CausalSelfAttentionPass<T> attention;  // (rows, d_model), weights (n, n) per head
  MatrixT<T> h;                          // (rows, d_model) x + attention
  LayerNormPass<T> norm2;                // (rows, d_model)
  MlpPass<T> mlp;                        // (rows, d_model)
  MatrixT<T> y;                          // (rows, d_model) h + mlp
};

// x: (n, d_model) -> y: (n, d_model), or (1, d_model) for the last row alone (every head's
// weights are whole either way). With the past keys and values of p positions, x's rows stand at
// positions p .. p + n - 1 (causal_self_attention_forward). Only a pass of every row and no past
// can go back through decoder_block_backward.
template <typename T>
DecoderBlockPass<T> decoder_block_forward(const MatrixT<T>& x, const DecoderBlockWeights<T>& w,
                                          OutputRows rows = OutputRows::every_position,
                                          const PastKeysValues<T>* past = nullptr);

// dy: (n, d_model) -> dx: (n, d_model); adds every weight's gradient into its grad.
template <typename T>
MatrixT<T> decoder_block_backward(const DecoderBlockPass<T>& pass, const MatrixT<T>& dy,
                                  DecoderBlockWeights<T>& w);

}  // namespace attn

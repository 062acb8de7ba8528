// The pre-layer-norm residual sublayers every transformer block is made of, forward and backward:
// a sublayer reads a normalised copy of the residual stream x and adds its result to it,
//   y = x + sublayer(LayerNorm(x))
// so the identity path from x to y is never scaled and gradients reach early blocks undiminished.
// The sublayers are self-attention, cross-attention over an encoder's output and the MLP; the
// language model's decoder block (decoder_block.hpp), the encoder block (encoder_block.hpp) and
// the decoder block with cross-attention (cross_decoder_block.hpp) are sequences of them.
// Templates on the scalar (float and double, instantiated in residual_sublayers.cpp); conventions
// as in layers.hpp.
#pragma once

#include "attn/attention_layer.hpp"
#include "attn/layer_norm.hpp"
#include "attn/mlp.hpp"

namespace attn {

// Rows below: n for OutputRows::every_position, 1 for last_position.
template <typename T>
struct AttentionSublayerPass {
  LayerNormPass<T> norm;            // (n, d_model)
  AttentionLayerPass<T> attention;  // (rows, d_model), weights (n, n_k) per head
  MatrixT<T> y;                     // (rows, d_model) x + attention
};

template <typename T>
struct MlpSublayerPass {
  LayerNormPass<T> norm;  // (n, d_model)
  MlpPass<T> mlp;         // (n, d_model)
  MatrixT<T> y;           // (n, d_model) x + mlp
};

// x: (n, d_model) -> y: (n, d_model) = x + SelfAttention(LayerNorm(x)), masked as `mask` says;
// (1, d_model), x's last row plus the attention's, for OutputRows::last_position. With past keys
// and values, as self_attention_forward.
template <typename T>
AttentionSublayerPass<T> self_attention_sublayer_forward(
    const MatrixT<T>& x, const LayerNormWeights<T>& norm, const AttentionLayerWeights<T>& attention,
    const SelfAttentionMask& mask, OutputRows rows = OutputRows::every_position,
    const PastKeysValues<T>* past = nullptr);

// dy: (n, d_model) -> dx: (n, d_model) = dy + LayerNorm'(SelfAttention'(dy)); adds every weight's
// gradient into its grad. Only a pass of every row and no past can go back.
template <typename T>
MatrixT<T> self_attention_sublayer_backward(const AttentionSublayerPass<T>& pass,
                                            const MatrixT<T>& dy, LayerNormWeights<T>& norm,
                                            AttentionLayerWeights<T>& attention);

// x: (T_dec, d_model), encoder_output: (T_enc, d_model), encoder_padding: empty or T_enc flags ->
// y: (T_dec, d_model) = x + CrossAttention(LayerNorm(x), encoder_output). The encoder's output is
// read as it is: the encoder normalises it (or not) before. With `projected`, its keys and values
// already projected, as cross_attention_forward takes them.
template <typename T>
AttentionSublayerPass<T> cross_attention_sublayer_forward(
    const MatrixT<T>& x, const MatrixT<T>& encoder_output, const LayerNormWeights<T>& norm,
    const AttentionLayerWeights<T>& attention, const KeyPadding& encoder_padding,
    const PastKeysValues<T>* projected = nullptr);

template <typename T>
struct CrossAttentionSublayerGradients {
  MatrixT<T> dx;                // (T_dec, d_model)
  MatrixT<T> d_encoder_output;  // (T_enc, d_model); 0 on padded positions
};

// dy: (T_dec, d_model) -> dL/dx, dL/d(encoder_output); adds every weight's gradient into its grad.
template <typename T>
CrossAttentionSublayerGradients<T> cross_attention_sublayer_backward(
    const AttentionSublayerPass<T>& pass, const MatrixT<T>& dy, LayerNormWeights<T>& norm,
    AttentionLayerWeights<T>& attention);

// x: (n, d_model) -> y: (n, d_model) = x + MLP(LayerNorm(x)), position by position.
template <typename T>
MlpSublayerPass<T> mlp_sublayer_forward(const MatrixT<T>& x, const LayerNormWeights<T>& norm,
                                        const MlpWeights<T>& mlp);

// dy: (n, d_model) -> dx: (n, d_model) = dy + LayerNorm'(MLP'(dy)); adds every weight's gradient
// into its grad.
template <typename T>
MatrixT<T> mlp_sublayer_backward(const MlpSublayerPass<T>& pass, const MatrixT<T>& dy,
                                 LayerNormWeights<T>& norm, MlpWeights<T>& mlp);

}  // namespace attn

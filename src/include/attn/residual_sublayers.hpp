// The residual sublayers every transformer block is made of, forward and backward, with the layer
// norm in either of its two places (NormPlace):
//   pre-LN   y = x + sublayer(LayerNorm(x))     the sublayer reads a normalised copy of the stream
//   post-LN  y = LayerNorm(x + sublayer(x))     the norm sits on the stream itself
// Pre-LN leaves the identity path from x to y unscaled, so gradients reach early blocks
// undiminished; post-LN (Vaswani et al., 2017) sends every step of it through a norm. Forward and
// backward are written once for both: the place changes where the norm is, nothing else.
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

// Where a sublayer's layer norm sits: on its branch's input (pre, the core's default and every
// committed model's) or on the sum of the stream and the branch (post).
enum class NormPlace { pre, post };

// Rows below: n for OutputRows::every_position, 1 for last_position.
template <typename T>
struct AttentionSublayerPass {
  NormPlace place = NormPlace::pre;
  LayerNormPass<T> norm;  // pre: of x, (n, d_model); post: of x + attention, (rows, d_model)
  AttentionLayerPass<T> attention;  // (rows, d_model), weights (n, n_k) per head
  MatrixT<T> y;                     // (rows, d_model) x + attention, or its norm (post)
};

template <typename T>
struct MlpSublayerPass {
  NormPlace place = NormPlace::pre;
  LayerNormPass<T> norm;  // (n, d_model) pre: of x; post: of x + mlp
  MlpPass<T> mlp;         // (n, d_model)
  MatrixT<T> y;           // (n, d_model) x + mlp, or its norm (post)
};

// x: (n, d_model) -> y: (n, d_model) = x + SelfAttention(LayerNorm(x)) (pre) or
// LayerNorm(x + SelfAttention(x)) (post), masked as `mask` says; (1, d_model), from x's last row
// and the attention's, for OutputRows::last_position. With past keys and values, as
// self_attention_forward (they are the keys and values of the attention's input: LayerNorm(x)
// pre, x post).
template <typename T>
AttentionSublayerPass<T> self_attention_sublayer_forward(
    const MatrixT<T>& x, const LayerNormWeights<T>& norm, const AttentionLayerWeights<T>& attention,
    const SelfAttentionMask& mask, NormPlace place, OutputRows rows = OutputRows::every_position,
    const PastKeysValues<T>* past = nullptr);

// dy: (n, d_model) -> dx: (n, d_model) = dy + LayerNorm'(SelfAttention'(dy)) (pre), or with
// ds = LayerNorm'(dy), ds + SelfAttention'(ds) (post); adds every weight's gradient into its
// grad. Only a pass of every row and no past can go back.
template <typename T>
MatrixT<T> self_attention_sublayer_backward(const AttentionSublayerPass<T>& pass,
                                            const MatrixT<T>& dy, LayerNormWeights<T>& norm,
                                            AttentionLayerWeights<T>& attention);

// x: (T_dec, d_model), encoder_output: (T_enc, d_model), encoder_padding: empty or T_enc flags ->
// y: (T_dec, d_model) = x + CrossAttention(LayerNorm(x), encoder_output) (pre) or
// LayerNorm(x + CrossAttention(x, encoder_output)) (post). The encoder's output is read as it is:
// the encoder normalises it (or not) before. With `projected`, its keys and values already
// projected, as cross_attention_forward takes them.
template <typename T>
AttentionSublayerPass<T> cross_attention_sublayer_forward(
    const MatrixT<T>& x, const MatrixT<T>& encoder_output, const LayerNormWeights<T>& norm,
    const AttentionLayerWeights<T>& attention, const KeyPadding& encoder_padding, NormPlace place,
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

// x: (n, d_model) -> y: (n, d_model) = x + MLP(LayerNorm(x)) (pre) or LayerNorm(x + MLP(x))
// (post), position by position.
template <typename T>
MlpSublayerPass<T> mlp_sublayer_forward(const MatrixT<T>& x, const LayerNormWeights<T>& norm,
                                        const MlpWeights<T>& mlp, NormPlace place);

// dy: (n, d_model) -> dx: (n, d_model), as self_attention_sublayer_backward with the MLP as the
// branch; adds every weight's gradient into its grad.
template <typename T>
MatrixT<T> mlp_sublayer_backward(const MlpSublayerPass<T>& pass, const MatrixT<T>& dy,
                                 LayerNormWeights<T>& norm, MlpWeights<T>& mlp);

}  // namespace attn

// One decoder block with cross-attention, of an encoder-decoder transformer, forward and
// backward. A template on the scalar (float and double, instantiated in
// cross_decoder_block.cpp); conventions as in layers.hpp.
//
// For x: (T_dec, d_model), the decoder's states, and the encoder's output e: (T_enc, d_model)
// with its padding, pre-layer-norm (the default):
//   h_1 = x + CausalSelfAttention(LayerNorm_1(x))        (T_dec, d_model)
//   h_2 = h_1 + CrossAttention(LayerNorm_2(h_1), e)      (T_dec, d_model)  queries from h_1,
//                                                                          keys and values from e
//   y = h_2 + MLP(LayerNorm_3(h_2))                      (T_dec, d_model)
// or post-layer-norm (norm_place = NormPlace::post):
//   h_1 = LayerNorm_1(x + CausalSelfAttention(x))
//   h_2 = LayerNorm_2(h_1 + CrossAttention(h_1, e))
//   y = LayerNorm_3(h_2 + MLP(h_2))
// Three of residual_sublayers.hpp's sublayers: the language model's decoder block
// (decoder_block.hpp) with the cross-attention sublayer between its two. This is PyTorch's
// nn.TransformerDecoderLayer with norm_first=True (pre) or False (post), a causal tgt_mask and a
// memory_key_padding_mask.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attn/residual_sublayers.hpp"

namespace attn {

template <typename T>
struct CrossDecoderBlockWeights {
  LayerNormWeights<T> norm1;
  AttentionLayerWeights<T> self_attention;
  LayerNormWeights<T> norm2;
  AttentionLayerWeights<T> cross_attention;
  LayerNormWeights<T> norm3;
  MlpWeights<T> mlp;
  NormPlace norm_place = NormPlace::pre;  // where the three sublayers' norms sit; not a parameter

  // Every parameter, in a fixed order: norm1, self_attention (W_q, b_q, ..., b_o), norm2,
  // cross_attention (W_q, ..., b_o), norm3, mlp (W_1, b_1, W_2, b_2): 26 of them.
  std::vector<Parameter<T>*> parameters();

  // Names them "<prefix>.norm1.gain", "<prefix>.self_attention.W_q", ...,
  // "<prefix>.cross_attention.W_q", ..., "<prefix>.mlp.b_2".
  void name(const std::string& prefix) {
    norm1.name(prefix + ".norm1");
    self_attention.name(prefix + ".self_attention");
    norm2.name(prefix + ".norm2");
    cross_attention.name(prefix + ".cross_attention");
    norm3.name(prefix + ".norm3");
    mlp.name(prefix + ".mlp");
  }
};

// Seeded weights named "<prefix>.norm1.gain", "<prefix>.self_attention.W_q", ...; output_scale
// multiplies the three projections that write into the residual stream (both W_o and W_2). The
// place of the norms draws nothing.
template <typename T>
CrossDecoderBlockWeights<T> cross_decoder_block_weights(int d_model, int heads, int d_mlp,
                                                        std::uint64_t seed, double output_scale,
                                                        const std::string& prefix,
                                                        NormPlace norm_place = NormPlace::pre);

template <typename T>
struct CrossDecoderBlockPass {
  AttentionSublayerPass<T> self_attention;   // h_1: (T_dec, d_model), weights (T_dec, T_dec)
  AttentionSublayerPass<T> cross_attention;  // h_2: (T_dec, d_model), weights (T_dec, T_enc)
  MlpSublayerPass<T> mlp;                    // y: (T_dec, d_model)
  const MatrixT<T>& y() const { return mlp.y; }
  // Cross-attention head j's weights: (T_dec, T_enc), each decoder position's over the encoder's
  // positions, exactly 0 on padded ones.
  const MatrixT<T>& cross_weights(int head) const {
    return cross_attention.attention.weights(head);
  }
};

// x: (T_dec, d_model), encoder_output: (T_enc, d_model), encoder_padding: empty or T_enc flags
// (non-zero = padded encoder position) -> y: (T_dec, d_model). Throws InvalidArgument on shapes
// that do not fit, padding of the wrong length, or padding over every encoder position.
template <typename T>
CrossDecoderBlockPass<T> cross_decoder_block_forward(const MatrixT<T>& x,
                                                     const MatrixT<T>& encoder_output,
                                                     const CrossDecoderBlockWeights<T>& w,
                                                     const KeyPadding& encoder_padding);

template <typename T>
struct CrossDecoderBlockGradients {
  MatrixT<T> dx;                // (T_dec, d_model)
  MatrixT<T> d_encoder_output;  // (T_enc, d_model); 0 on padded positions
};

// dy: (T_dec, d_model) -> dL/dx, dL/d(encoder_output); adds every weight's gradient into its
// grad. A decoder of several blocks sums d_encoder_output over them: every block reads the same
// encoder output.
template <typename T>
CrossDecoderBlockGradients<T> cross_decoder_block_backward(const CrossDecoderBlockPass<T>& pass,
                                                           const MatrixT<T>& dy,
                                                           CrossDecoderBlockWeights<T>& w);

}  // namespace attn

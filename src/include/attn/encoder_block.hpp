// One encoder block of an encoder-decoder transformer, forward and backward. A template on the
// scalar (float and double, instantiated in encoder_block.cpp); conventions as in layers.hpp.
//
// For x: (n, d_model), the encoder's states of one sentence, with key padding over its positions,
// pre-layer-norm (the default):
//   h = x + SelfAttention(LayerNorm_1(x))     (n, d_model)  every position sees every unpadded one
//   y = h + MLP(LayerNorm_2(h))               (n, d_model)
// or post-layer-norm (norm_place = NormPlace::post), PyTorch's norm_first=False:
//   h = LayerNorm_1(x + SelfAttention(x))     (n, d_model)
//   y = LayerNorm_2(h + MLP(h))               (n, d_model)
// It is the language model's decoder block (decoder_block.hpp) with another mask: no causal mask,
// and padded positions hidden as keys. A padded position still gets an output row (its query
// attends to the unpadded keys), as in PyTorch's nn.TransformerEncoderLayer; nothing should read
// it.
#pragma once

#include <cstdint>
#include <string>

#include "attn/decoder_block.hpp"

namespace attn {

// The encoder block's parameters are a decoder block's: norm1, attention, norm2 and mlp, named
// "<prefix>.norm1.gain", "<prefix>.attention.W_q", ..., "<prefix>.mlp.b_2", and its norm_place.
template <typename T>
using EncoderBlockWeights = DecoderBlockWeights<T>;

// Its pass too: self_attention (h, and every head's (n, n) weights, exactly 0 on padded
// positions), then mlp (y).
template <typename T>
using EncoderBlockPass = DecoderBlockPass<T>;

// Seeded weights, drawn as decoder_block_weights draws them; output_scale multiplies the two
// projections that write into the residual stream (W_o and W_2).
template <typename T>
EncoderBlockWeights<T> encoder_block_weights(int d_model, int heads, int d_mlp, std::uint64_t seed,
                                             double output_scale, const std::string& prefix,
                                             NormPlace norm_place = NormPlace::pre);

// x: (n, d_model), key_padding: empty or n flags (non-zero = padded position) -> y: (n, d_model).
// Throws InvalidArgument on shapes that do not fit, padding of the wrong length, or padding over
// every position.
template <typename T>
EncoderBlockPass<T> encoder_block_forward(const MatrixT<T>& x, const EncoderBlockWeights<T>& w,
                                          const KeyPadding& key_padding);

// dy: (n, d_model) -> dx: (n, d_model); adds every weight's gradient into its grad.
template <typename T>
MatrixT<T> encoder_block_backward(const EncoderBlockPass<T>& pass, const MatrixT<T>& dy,
                                  EncoderBlockWeights<T>& w);

}  // namespace attn

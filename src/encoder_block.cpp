#include "attn/encoder_block.hpp"

namespace attn {

template <typename T>
EncoderBlockWeights<T> encoder_block_weights(int d_model, int heads, int d_mlp, std::uint64_t seed,
                                             double output_scale, const std::string& prefix,
                                             NormPlace norm_place) {
  return decoder_block_weights<T>(d_model, heads, d_mlp, seed, output_scale, prefix, norm_place);
}

// x: (n, d_model) -> y: (n, d_model)
template <typename T>
EncoderBlockPass<T> encoder_block_forward(const MatrixT<T>& x, const EncoderBlockWeights<T>& w,
                                          const KeyPadding& key_padding) {
  EncoderBlockPass<T> pass;
  // 1. Self-attention over the whole sentence, its padded positions hidden as keys.
  pass.self_attention = self_attention_sublayer_forward(
      x, w.norm1, w.attention, SelfAttentionMask{false, key_padding}, w.norm_place);
  // 2. The MLP, position by position.
  pass.mlp = mlp_sublayer_forward(pass.self_attention.y, w.norm2, w.mlp, w.norm_place);
  return pass;
}

// dy: (n, d_model) -> dx: (n, d_model)
template <typename T>
MatrixT<T> encoder_block_backward(const EncoderBlockPass<T>& pass, const MatrixT<T>& dy,
                                  EncoderBlockWeights<T>& w) {
  // The same sublayers as the decoder block's: the mask is in the pass.
  return decoder_block_backward(pass, dy, w);
}

#define ATTN_INSTANTIATE_ENCODER_BLOCK(T)                                                     \
  template EncoderBlockWeights<T> encoder_block_weights(int, int, int, std::uint64_t, double, \
                                                        const std::string&, NormPlace);       \
  template EncoderBlockPass<T> encoder_block_forward(                                         \
      const MatrixT<T>&, const EncoderBlockWeights<T>&, const KeyPadding&);                   \
  template MatrixT<T> encoder_block_backward(const EncoderBlockPass<T>&, const MatrixT<T>&,   \
                                             EncoderBlockWeights<T>&);

ATTN_INSTANTIATE_ENCODER_BLOCK(float)
ATTN_INSTANTIATE_ENCODER_BLOCK(double)

}  // namespace attn

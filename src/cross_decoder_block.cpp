#include "attn/cross_decoder_block.hpp"

#include <utility>

#include "attn/random.hpp"

namespace attn {

template <typename T>
std::vector<Parameter<T>*> CrossDecoderBlockWeights<T>::parameters() {
  std::vector<Parameter<T>*> all{&norm1.gain, &norm1.bias};
  for (Parameter<T>* p : self_attention.parameters()) all.push_back(p);
  all.insert(all.end(), {&norm2.gain, &norm2.bias});
  for (Parameter<T>* p : cross_attention.parameters()) all.push_back(p);
  all.insert(all.end(), {&norm3.gain, &norm3.bias, &mlp.w1, &mlp.b1, &mlp.w2, &mlp.b2});
  return all;
}

template <typename T>
CrossDecoderBlockWeights<T> cross_decoder_block_weights(int d_model, int heads, int d_mlp,
                                                        std::uint64_t seed, double output_scale,
                                                        const std::string& prefix,
                                                        NormPlace norm_place) {
  CrossDecoderBlockWeights<T> w;
  w.norm1 = layer_norm_weights<T>(d_model, {});
  w.self_attention =
      attention_layer_weights<T>(d_model, heads, derive_seed(seed, 1), output_scale, {});
  w.norm2 = layer_norm_weights<T>(d_model, {});
  w.cross_attention =
      attention_layer_weights<T>(d_model, heads, derive_seed(seed, 3), output_scale, {});
  w.norm3 = layer_norm_weights<T>(d_model, {});
  w.mlp = mlp_weights<T>(d_model, d_mlp, derive_seed(seed, 2), output_scale, {});
  w.name(prefix);
  w.norm_place = norm_place;
  return w;
}

// x: (T_dec, d_model), encoder_output: (T_enc, d_model) -> y: (T_dec, d_model)
template <typename T>
CrossDecoderBlockPass<T> cross_decoder_block_forward(const MatrixT<T>& x,
                                                     const MatrixT<T>& encoder_output,
                                                     const CrossDecoderBlockWeights<T>& w,
                                                     const KeyPadding& encoder_padding) {
  CrossDecoderBlockPass<T> pass;
  // 1. Causal self-attention over the German written so far.
  pass.self_attention =
      self_attention_sublayer_forward(x, w.norm1, w.self_attention, causal_mask(), w.norm_place);
  // 2. Each position reads the English sentence: the encoder's output, its padding hidden.
  pass.cross_attention =
      cross_attention_sublayer_forward(pass.self_attention.y, encoder_output, w.norm2,
                                       w.cross_attention, encoder_padding, w.norm_place);
  // 3. The MLP, position by position.
  pass.mlp = mlp_sublayer_forward(pass.cross_attention.y, w.norm3, w.mlp, w.norm_place);
  return pass;
}

// dy: (T_dec, d_model) -> dx: (T_dec, d_model), d_encoder_output: (T_enc, d_model)
template <typename T>
CrossDecoderBlockGradients<T> cross_decoder_block_backward(const CrossDecoderBlockPass<T>& pass,
                                                           const MatrixT<T>& dy,
                                                           CrossDecoderBlockWeights<T>& w) {
  // Each sublayer back in turn, last first; the cross-attention's also to the encoder.
  const MatrixT<T> d_h2 = mlp_sublayer_backward(pass.mlp, dy, w.norm3, w.mlp);
  CrossAttentionSublayerGradients<T> cross =
      cross_attention_sublayer_backward(pass.cross_attention, d_h2, w.norm2, w.cross_attention);
  CrossDecoderBlockGradients<T> g;
  g.dx = self_attention_sublayer_backward(pass.self_attention, cross.dx, w.norm1, w.self_attention);
  g.d_encoder_output = std::move(cross.d_encoder_output);
  return g;
}

#define ATTN_INSTANTIATE_CROSS_DECODER_BLOCK(T)                                 \
  template struct CrossDecoderBlockWeights<T>;                                  \
  template CrossDecoderBlockWeights<T> cross_decoder_block_weights(             \
      int, int, int, std::uint64_t, double, const std::string&, NormPlace);     \
  template CrossDecoderBlockPass<T> cross_decoder_block_forward(                \
      const MatrixT<T>&, const MatrixT<T>&, const CrossDecoderBlockWeights<T>&, \
      const KeyPadding&);                                                       \
  template CrossDecoderBlockGradients<T> cross_decoder_block_backward(          \
      const CrossDecoderBlockPass<T>&, const MatrixT<T>&, CrossDecoderBlockWeights<T>&);

ATTN_INSTANTIATE_CROSS_DECODER_BLOCK(float)
ATTN_INSTANTIATE_CROSS_DECODER_BLOCK(double)

}  // namespace attn

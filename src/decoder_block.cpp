#include "attn/decoder_block.hpp"

#include <utility>

#include "attn/random.hpp"
#include "checks.hpp"

namespace attn {

template <typename T>
std::vector<Parameter<T>*> DecoderBlockWeights<T>::parameters() {
  AttentionLayerWeights<T>& a = attention;
  return {&norm1.gain, &norm1.bias, &a.w_q,      &a.b_q,      &a.w_k,  &a.b_k,  &a.w_v,  &a.b_v,
          &a.w_o,      &a.b_o,      &norm2.gain, &norm2.bias, &mlp.w1, &mlp.b1, &mlp.w2, &mlp.b2};
}

template <typename T>
DecoderBlockWeights<T> decoder_block_weights(int d_model, int heads, int d_mlp, std::uint64_t seed,
                                             double output_scale, const std::string& prefix,
                                             NormPlace norm_place) {
  DecoderBlockWeights<T> w;
  w.norm1 = layer_norm_weights<T>(d_model, {});
  w.attention = attention_layer_weights<T>(d_model, heads, derive_seed(seed, 1), output_scale, {});
  w.norm2 = layer_norm_weights<T>(d_model, {});
  w.mlp = mlp_weights<T>(d_model, d_mlp, derive_seed(seed, 2), output_scale, {});
  w.name(prefix);
  w.norm_place = norm_place;
  return w;
}

// x: (n, d_model) -> y: (n or 1, d_model)
template <typename T>
DecoderBlockPass<T> decoder_block_forward(const MatrixT<T>& x, const DecoderBlockWeights<T>& w,
                                          OutputRows rows, const PastKeysValues<T>* past) {
  DecoderBlockPass<T> pass;
  // 1. Causal self-attention adds to the stream (pre: reading it normalised; post: normalising
  //    the sum).
  pass.self_attention = self_attention_sublayer_forward(x, w.norm1, w.attention, causal_mask(),
                                                        w.norm_place, rows, past);
  // 2. The MLP likewise, position by position (so only the rows kept).
  pass.mlp = mlp_sublayer_forward(pass.self_attention.y, w.norm2, w.mlp, w.norm_place);
  return pass;
}

// dy: (n, d_model) -> dx: (n, d_model)
template <typename T>
MatrixT<T> decoder_block_backward(const DecoderBlockPass<T>& pass, const MatrixT<T>& dy,
                                  DecoderBlockWeights<T>& w) {
  if (pass.y().rows() != pass.weights(0).rows()) {
    detail::fail("decoder block backward",
                 "the pass computed the last row alone (OutputRows::last_position): only a pass "
                 "of every row can go back");
  }
  // 1. y from h through the MLP's sublayer, 2. h from x through the attention's: each back
  //    through its sublayer, whose pass knows where its norm sits.
  const MatrixT<T> dh = mlp_sublayer_backward(pass.mlp, dy, w.norm2, w.mlp);
  return self_attention_sublayer_backward(pass.self_attention, dh, w.norm1, w.attention);
}

#define ATTN_INSTANTIATE_DECODER_BLOCK(T)                                                      \
  template struct DecoderBlockWeights<T>;                                                      \
  template DecoderBlockWeights<T> decoder_block_weights(int, int, int, std::uint64_t, double,  \
                                                        const std::string&, NormPlace);        \
  template DecoderBlockPass<T> decoder_block_forward(                                          \
      const MatrixT<T>&, const DecoderBlockWeights<T>&, OutputRows, const PastKeysValues<T>*); \
  template MatrixT<T> decoder_block_backward(const DecoderBlockPass<T>&, const MatrixT<T>&,    \
                                             DecoderBlockWeights<T>&);

ATTN_INSTANTIATE_DECODER_BLOCK(float)
ATTN_INSTANTIATE_DECODER_BLOCK(double)

}  // namespace attn

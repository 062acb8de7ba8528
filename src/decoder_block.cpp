#include "attn/decoder_block.hpp"

#include <utility>

#include "attn/random.hpp"
#include "checks.hpp"

namespace attn {

template <typename T>
std::vector<Parameter<T>*> DecoderBlockWeights<T>::parameters() {
  CausalSelfAttentionWeights<T>& a = attention;
  return {&norm1.gain, &norm1.bias, &a.w_q,      &a.b_q,      &a.w_k,  &a.b_k,  &a.w_v,  &a.b_v,
          &a.w_o,      &a.b_o,      &norm2.gain, &norm2.bias, &mlp.w1, &mlp.b1, &mlp.w2, &mlp.b2};
}

template <typename T>
DecoderBlockWeights<T> decoder_block_weights(int d_model, int heads, int d_mlp, std::uint64_t seed,
                                             double output_scale, const std::string& prefix) {
  DecoderBlockWeights<T> w;
  w.norm1 = layer_norm_weights<T>(d_model, {});
  w.attention =
      causal_self_attention_weights<T>(d_model, heads, derive_seed(seed, 1), output_scale, {});
  w.norm2 = layer_norm_weights<T>(d_model, {});
  w.mlp = mlp_weights<T>(d_model, d_mlp, derive_seed(seed, 2), output_scale, {});
  w.name(prefix);
  return w;
}

// x: (n, d_model) -> y: (n or 1, d_model)
template <typename T>
DecoderBlockPass<T> decoder_block_forward(const MatrixT<T>& x, const DecoderBlockWeights<T>& w,
                                          OutputRows rows, const PastKeysValues<T>* past) {
  DecoderBlockPass<T> pass;
  // 1. Attention reads the normalised stream and adds to the stream itself.
  pass.norm1 = layer_norm_forward(x, w.norm1);
  pass.attention = causal_self_attention_forward(pass.norm1.y, w.attention, rows, past);
  pass.h = x.bottomRows(pass.attention.output.y.rows()) + pass.attention.output.y;
  // 2. The MLP likewise, position by position (so only the rows kept).
  pass.norm2 = layer_norm_forward(pass.h, w.norm2);
  pass.mlp = mlp_forward(pass.norm2.y, w.mlp);
  pass.y = pass.h + pass.mlp.output.y;
  return pass;
}

// dy: (n, d_model) -> dx: (n, d_model)
template <typename T>
MatrixT<T> decoder_block_backward(const DecoderBlockPass<T>& pass, const MatrixT<T>& dy,
                                  DecoderBlockWeights<T>& w) {
  if (pass.y.rows() != pass.norm1.y.rows()) {
    detail::fail("decoder block backward",
                 "the pass computed the last row alone (OutputRows::last_position): only a pass "
                 "of every row can go back");
  }
  // 1. y = h + mlp(norm2(h)): dL/dh is dy through the identity plus dy through the MLP branch.
  MatrixT<T> dh = dy;
  dh += layer_norm_backward(pass.norm2, mlp_backward(pass.mlp, dy, w.mlp), w.norm2);
  // 2. h = x + attention(norm1(x)): the same for x.
  MatrixT<T> dx = dh;
  dx += layer_norm_backward(
      pass.norm1, causal_self_attention_backward(pass.attention, dh, w.attention), w.norm1);
  return dx;
}

#define ATTN_INSTANTIATE_DECODER_BLOCK(T)                                                      \
  template struct DecoderBlockWeights<T>;                                                      \
  template DecoderBlockWeights<T> decoder_block_weights(int, int, int, std::uint64_t, double,  \
                                                        const std::string&);                   \
  template DecoderBlockPass<T> decoder_block_forward(                                          \
      const MatrixT<T>&, const DecoderBlockWeights<T>&, OutputRows, const PastKeysValues<T>*); \
  template MatrixT<T> decoder_block_backward(const DecoderBlockPass<T>&, const MatrixT<T>&,    \
                                             DecoderBlockWeights<T>&);

ATTN_INSTANTIATE_DECODER_BLOCK(float)
ATTN_INSTANTIATE_DECODER_BLOCK(double)

}  // namespace attn

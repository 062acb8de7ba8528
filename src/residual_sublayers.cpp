#include "attn/residual_sublayers.hpp"

#include <utility>

namespace attn {
namespace {

// The two places of the norm, forward and backward, each written once. A sublayer is
//   pre:  y = s, s = x + branch(LayerNorm(x))
//   post: y = LayerNorm(s), s = x + branch(x)
// and goes back as dL/ds = dy (pre) or LayerNorm'(dy) (post), then dL/dx = dL/ds plus the
// branch's gradient, through the norm (pre) or as it is (post).

// x -> the branch's input: LayerNorm(x) (pre, its pass kept in norm_pass) or x itself (post).
template <typename T>
const MatrixT<T>& branch_input(const MatrixT<T>& x, const LayerNormWeights<T>& norm,
                               NormPlace place, LayerNormPass<T>& norm_pass) {
  if (place == NormPlace::post) return x;
  norm_pass = layer_norm_forward(x, norm);
  return norm_pass.y;
}

// s = x + branch -> y: s itself (pre) or LayerNorm(s) (post, its pass kept in norm_pass).
template <typename T>
MatrixT<T> sublayer_output(MatrixT<T> sum, const LayerNormWeights<T>& norm, NormPlace place,
                           LayerNormPass<T>& norm_pass) {
  if (place == NormPlace::pre) return sum;
  norm_pass = layer_norm_forward(sum, norm);
  return norm_pass.y;
}

// dy -> dL/ds: dy itself (pre) or back through the norm of the sum (post).
template <typename T>
MatrixT<T> sum_gradient(const LayerNormPass<T>& norm_pass, const MatrixT<T>& dy,
                        LayerNormWeights<T>& norm, NormPlace place) {
  if (place == NormPlace::pre) return dy;
  return layer_norm_backward(norm_pass, dy, norm);
}

// ds, d_input (dL/d of the branch's input) -> dL/dx = ds + d_input, through the norm of x (pre)
// or as it is (post).
template <typename T>
MatrixT<T> stream_gradient(MatrixT<T> ds, const MatrixT<T>& d_input,
                           const LayerNormPass<T>& norm_pass, LayerNormWeights<T>& norm,
                           NormPlace place) {
  if (place == NormPlace::pre) {
    ds += layer_norm_backward(norm_pass, d_input, norm);
  } else {
    ds += d_input;
  }
  return ds;
}

}  // namespace

// x: (n, d_model) -> y: (n or 1, d_model)
template <typename T>
AttentionSublayerPass<T> self_attention_sublayer_forward(const MatrixT<T>& x,
                                                         const LayerNormWeights<T>& norm,
                                                         const AttentionLayerWeights<T>& attention,
                                                         const SelfAttentionMask& mask,
                                                         NormPlace place, OutputRows rows,
                                                         const PastKeysValues<T>* past) {
  AttentionSublayerPass<T> pass;
  pass.place = place;
  pass.attention =
      self_attention_forward(branch_input(x, norm, place, pass.norm), attention, mask, rows, past);
  // The last row alone adds to x's last row.
  pass.y =
      sublayer_output<T>(x.bottomRows(pass.attention.output.y.rows()) + pass.attention.output.y,
                         norm, place, pass.norm);
  return pass;
}

// dy: (n, d_model) -> dx: (n, d_model)
template <typename T>
MatrixT<T> self_attention_sublayer_backward(const AttentionSublayerPass<T>& pass,
                                            const MatrixT<T>& dy, LayerNormWeights<T>& norm,
                                            AttentionLayerWeights<T>& attention) {
  // s = x + attention(input): dL/dx is dL/ds through the identity plus through the branch.
  MatrixT<T> ds = sum_gradient(pass.norm, dy, norm, pass.place);
  const MatrixT<T> d_input = self_attention_backward(pass.attention, ds, attention);
  return stream_gradient(std::move(ds), d_input, pass.norm, norm, pass.place);
}

// x: (T_dec, d_model), encoder_output: (T_enc, d_model) -> y: (T_dec, d_model)
template <typename T>
AttentionSublayerPass<T> cross_attention_sublayer_forward(
    const MatrixT<T>& x, const MatrixT<T>& encoder_output, const LayerNormWeights<T>& norm,
    const AttentionLayerWeights<T>& attention, const KeyPadding& encoder_padding, NormPlace place,
    const PastKeysValues<T>* projected) {
  AttentionSublayerPass<T> pass;
  pass.place = place;
  pass.attention = cross_attention_forward(branch_input(x, norm, place, pass.norm),
                                           projected ? MatrixT<T>() : encoder_output, attention,
                                           encoder_padding, projected);
  pass.y = sublayer_output<T>(x + pass.attention.output.y, norm, place, pass.norm);
  return pass;
}

// dy: (T_dec, d_model) -> dx: (T_dec, d_model), d_encoder_output: (T_enc, d_model)
template <typename T>
CrossAttentionSublayerGradients<T> cross_attention_sublayer_backward(
    const AttentionSublayerPass<T>& pass, const MatrixT<T>& dy, LayerNormWeights<T>& norm,
    AttentionLayerWeights<T>& attention) {
  MatrixT<T> ds = sum_gradient(pass.norm, dy, norm, pass.place);
  CrossAttentionGradients<T> branch = cross_attention_backward(pass.attention, ds, attention);
  CrossAttentionSublayerGradients<T> g;
  g.dx = stream_gradient(std::move(ds), branch.d_decoder_states, pass.norm, norm, pass.place);
  g.d_encoder_output = std::move(branch.d_encoder_output);
  return g;
}

// x: (n, d_model) -> y: (n, d_model)
template <typename T>
MlpSublayerPass<T> mlp_sublayer_forward(const MatrixT<T>& x, const LayerNormWeights<T>& norm,
                                        const MlpWeights<T>& mlp, NormPlace place) {
  MlpSublayerPass<T> pass;
  pass.place = place;
  pass.mlp = mlp_forward(branch_input(x, norm, place, pass.norm), mlp);
  pass.y = sublayer_output<T>(x + pass.mlp.output.y, norm, place, pass.norm);
  return pass;
}

// dy: (n, d_model) -> dx: (n, d_model)
template <typename T>
MatrixT<T> mlp_sublayer_backward(const MlpSublayerPass<T>& pass, const MatrixT<T>& dy,
                                 LayerNormWeights<T>& norm, MlpWeights<T>& mlp) {
  MatrixT<T> ds = sum_gradient(pass.norm, dy, norm, pass.place);
  const MatrixT<T> d_input = mlp_backward(pass.mlp, ds, mlp);
  return stream_gradient(std::move(ds), d_input, pass.norm, norm, pass.place);
}

#define ATTN_INSTANTIATE_RESIDUAL_SUBLAYERS(T)                                                    \
  template AttentionSublayerPass<T> self_attention_sublayer_forward(                              \
      const MatrixT<T>&, const LayerNormWeights<T>&, const AttentionLayerWeights<T>&,             \
      const SelfAttentionMask&, NormPlace, OutputRows, const PastKeysValues<T>*);                 \
  template MatrixT<T> self_attention_sublayer_backward(const AttentionSublayerPass<T>&,           \
                                                       const MatrixT<T>&, LayerNormWeights<T>&,   \
                                                       AttentionLayerWeights<T>&);                \
  template AttentionSublayerPass<T> cross_attention_sublayer_forward(                             \
      const MatrixT<T>&, const MatrixT<T>&, const LayerNormWeights<T>&,                           \
      const AttentionLayerWeights<T>&, const KeyPadding&, NormPlace, const PastKeysValues<T>*);   \
  template CrossAttentionSublayerGradients<T> cross_attention_sublayer_backward(                  \
      const AttentionSublayerPass<T>&, const MatrixT<T>&, LayerNormWeights<T>&,                   \
      AttentionLayerWeights<T>&);                                                                 \
  template MlpSublayerPass<T> mlp_sublayer_forward(const MatrixT<T>&, const LayerNormWeights<T>&, \
                                                   const MlpWeights<T>&, NormPlace);              \
  template MatrixT<T> mlp_sublayer_backward(const MlpSublayerPass<T>&, const MatrixT<T>&,         \
                                            LayerNormWeights<T>&, MlpWeights<T>&);

ATTN_INSTANTIATE_RESIDUAL_SUBLAYERS(float)
ATTN_INSTANTIATE_RESIDUAL_SUBLAYERS(double)

}  // namespace attn

#include "attn/residual_sublayers.hpp"

#include <utility>

namespace attn {

// x: (n, d_model) -> y: (n or 1, d_model)
template <typename T>
AttentionSublayerPass<T> self_attention_sublayer_forward(
    const MatrixT<T>& x, const LayerNormWeights<T>& norm, const AttentionLayerWeights<T>& attention,
    const SelfAttentionMask& mask, OutputRows rows, const PastKeysValues<T>* past) {
  AttentionSublayerPass<T> pass;
  pass.norm = layer_norm_forward(x, norm);
  pass.attention = self_attention_forward(pass.norm.y, attention, mask, rows, past);
  // The last row alone adds to x's last row.
  pass.y = x.bottomRows(pass.attention.output.y.rows()) + pass.attention.output.y;
  return pass;
}

// dy: (n, d_model) -> dx: (n, d_model)
template <typename T>
MatrixT<T> self_attention_sublayer_backward(const AttentionSublayerPass<T>& pass,
                                            const MatrixT<T>& dy, LayerNormWeights<T>& norm,
                                            AttentionLayerWeights<T>& attention) {
  // y = x + attention(norm(x)): dL/dx is dy through the identity plus dy through the branch.
  MatrixT<T> dx = dy;
  dx +=
      layer_norm_backward(pass.norm, self_attention_backward(pass.attention, dy, attention), norm);
  return dx;
}

// x: (T_dec, d_model), encoder_output: (T_enc, d_model) -> y: (T_dec, d_model)
template <typename T>
AttentionSublayerPass<T> cross_attention_sublayer_forward(const MatrixT<T>& x,
                                                          const MatrixT<T>& encoder_output,
                                                          const LayerNormWeights<T>& norm,
                                                          const AttentionLayerWeights<T>& attention,
                                                          const KeyPadding& encoder_padding,
                                                          const PastKeysValues<T>* projected) {
  AttentionSublayerPass<T> pass;
  pass.norm = layer_norm_forward(x, norm);
  pass.attention = cross_attention_forward(pass.norm.y, projected ? MatrixT<T>() : encoder_output,
                                           attention, encoder_padding, projected);
  pass.y = x + pass.attention.output.y;
  return pass;
}

// dy: (T_dec, d_model) -> dx: (T_dec, d_model), d_encoder_output: (T_enc, d_model)
template <typename T>
CrossAttentionSublayerGradients<T> cross_attention_sublayer_backward(
    const AttentionSublayerPass<T>& pass, const MatrixT<T>& dy, LayerNormWeights<T>& norm,
    AttentionLayerWeights<T>& attention) {
  CrossAttentionGradients<T> branch = cross_attention_backward(pass.attention, dy, attention);
  CrossAttentionSublayerGradients<T> g;
  g.dx = dy;
  g.dx += layer_norm_backward(pass.norm, branch.d_decoder_states, norm);
  g.d_encoder_output = std::move(branch.d_encoder_output);
  return g;
}

// x: (n, d_model) -> y: (n, d_model)
template <typename T>
MlpSublayerPass<T> mlp_sublayer_forward(const MatrixT<T>& x, const LayerNormWeights<T>& norm,
                                        const MlpWeights<T>& mlp) {
  MlpSublayerPass<T> pass;
  pass.norm = layer_norm_forward(x, norm);
  pass.mlp = mlp_forward(pass.norm.y, mlp);
  pass.y = x + pass.mlp.output.y;
  return pass;
}

// dy: (n, d_model) -> dx: (n, d_model)
template <typename T>
MatrixT<T> mlp_sublayer_backward(const MlpSublayerPass<T>& pass, const MatrixT<T>& dy,
                                 LayerNormWeights<T>& norm, MlpWeights<T>& mlp) {
  MatrixT<T> dx = dy;
  dx += layer_norm_backward(pass.norm, mlp_backward(pass.mlp, dy, mlp), norm);
  return dx;
}

#define ATTN_INSTANTIATE_RESIDUAL_SUBLAYERS(T)                                                    \
  template AttentionSublayerPass<T> self_attention_sublayer_forward(                              \
      const MatrixT<T>&, const LayerNormWeights<T>&, const AttentionLayerWeights<T>&,             \
      const SelfAttentionMask&, OutputRows, const PastKeysValues<T>*);                            \
  template MatrixT<T> self_attention_sublayer_backward(const AttentionSublayerPass<T>&,           \
                                                       const MatrixT<T>&, LayerNormWeights<T>&,   \
                                                       AttentionLayerWeights<T>&);                \
  template AttentionSublayerPass<T> cross_attention_sublayer_forward(                             \
      const MatrixT<T>&, const MatrixT<T>&, const LayerNormWeights<T>&,                           \
      const AttentionLayerWeights<T>&, const KeyPadding&, const PastKeysValues<T>*);              \
  template CrossAttentionSublayerGradients<T> cross_attention_sublayer_backward(                  \
      const AttentionSublayerPass<T>&, const MatrixT<T>&, LayerNormWeights<T>&,                   \
      AttentionLayerWeights<T>&);                                                                 \
  template MlpSublayerPass<T> mlp_sublayer_forward(const MatrixT<T>&, const LayerNormWeights<T>&, \
                                                   const MlpWeights<T>&);                         \
  template MatrixT<T> mlp_sublayer_backward(const MlpSublayerPass<T>&, const MatrixT<T>&,         \
                                            LayerNormWeights<T>&, MlpWeights<T>&);

ATTN_INSTANTIATE_RESIDUAL_SUBLAYERS(float)
ATTN_INSTANTIATE_RESIDUAL_SUBLAYERS(double)

}  // namespace attn

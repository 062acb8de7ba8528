#include "attn/attention_layer.hpp"

#include <cmath>
#include <utility>

#include "attn/random.hpp"
#include "checks.hpp"
#include "dense_linear.hpp"

namespace attn {
namespace {

void check_heads(const char* where, int d_model, int heads) {
  if (heads < 1 || d_model < 1 || d_model % heads != 0) {
    detail::fail(where, "heads must be at least 1 and divide d_model, got " +
                            std::to_string(heads) +
                            " heads for d_model = " + std::to_string(d_model));
  }
}

// (p + n, d_model): the past's rows, then the pass's own.
template <typename T>
MatrixT<T> after_past(const MatrixT<T>& earlier, const MatrixT<T>& now) {
  MatrixT<T> all(earlier.rows() + now.rows(), now.cols());
  all << earlier, now;
  return all;
}

// The heads and the output projection, shared by self- and cross-attention. The projections are
// already in pass.query, pass.key and pass.value: (n_q, d_model), (n_k, d_model) twice. Each head
// attends with its own d_k columns, scaled by 1/sqrt(d_k) and masked as the options say: the
// core's heads of attention (attention_grad.hpp), whose backward pass is checked. With a past,
// its keys and values come first and the queries are the last positions.
template <typename T>
void attend_and_mix(AttentionLayerPass<T>& pass, const AttentionLayerWeights<T>& w,
                    const AttentionGradOptions& options, OutputRows rows,
                    const PastKeysValues<T>* past) {
  HeadsPass<T> heads =
      past ? heads_forward(pass.query.y, after_past(past->keys, pass.key.y),
                           after_past(past->values, pass.value.y), w.heads, options)
           : heads_forward(pass.query.y, pass.key.y, pass.value.y, w.heads, options);
  pass.heads = std::move(heads.heads);
  // The heads' outputs side by side: (n_q, d_model), or the last row alone.
  MatrixT<T> concat = rows == OutputRows::last_position ? MatrixT<T>(heads.output.bottomRows(1))
                                                        : std::move(heads.output);
  // Mix the heads: (n_q or 1, d_model) -> (n_q or 1, d_model).
  pass.output = detail::dense_linear_forward(std::move(concat), w.w_o, &w.b_o);
}

// dy: (n_q, d_model) -> dL/dQ (n_q, d_model), dL/dK and dL/dV (n_k, d_model): back through the
// output projection to the concatenated heads, then each head's slice of it back through its
// attention, into its columns.
template <typename T>
AttentionGradients<T> heads_and_mix_backward(const AttentionLayerPass<T>& pass,
                                             const MatrixT<T>& dy, AttentionLayerWeights<T>& w) {
  const MatrixT<T> d_concat = detail::dense_linear_backward(pass.output, dy, w.w_o, &w.b_o);
  return heads_backward(pass.heads, d_concat);
}

}  // namespace

template <typename T>
AttentionLayerWeights<T> attention_layer_weights(int d_model, int heads, std::uint64_t seed,
                                                 double output_scale, const std::string& prefix) {
  check_heads("attention layer weights", d_model, heads);
  const int d = d_model;
  // Unnamed until the end: w.name() gives every parameter its name.
  const auto weight = [&](std::uint64_t tag, double scale) {
    return Parameter<T>({}, detail::fan_in_uniform<T>(d, d, derive_seed(seed, tag), scale));
  };
  const auto bias = [&] { return Parameter<T>({}, MatrixT<T>::Zero(1, d)); };
  AttentionLayerWeights<T> w;
  w.heads = heads;
  w.w_q = weight(1, 1.0);
  w.b_q = bias();
  w.w_k = weight(2, 1.0);
  w.b_k = bias();
  w.w_v = weight(3, 1.0);
  w.b_v = bias();
  w.w_o = weight(4, output_scale);
  w.b_o = bias();
  w.name(prefix);
  return w;
}

// x: (n, d_model) -> y: (n or 1, d_model)
template <typename T>
AttentionLayerPass<T> self_attention_forward(MatrixT<T> x, const AttentionLayerWeights<T>& w,
                                             const SelfAttentionMask& mask, OutputRows rows,
                                             const PastKeysValues<T>* past) {
  const char* where = "self-attention forward";
  const int d_model = static_cast<int>(w.w_q.value.rows());
  check_heads(where, d_model, w.heads);
  const bool has_past = past && (past->keys.rows() > 0 || past->values.rows() > 0);
  if (has_past && (past->keys.cols() != d_model || past->values.cols() != d_model ||
                   past->keys.rows() != past->values.rows())) {
    detail::fail(where, "the past keys are " + shape_of(past->keys.rows(), past->keys.cols()) +
                            " and values " + shape_of(past->values.rows(), past->values.cols()) +
                            ": both need the same rows and d_model = " + std::to_string(d_model) +
                            " columns");
  }
  if (has_past && (!mask.causal || !mask.key_padding.empty())) {
    detail::fail(where,
                 "past keys and values need the causal mask and no key padding: the past's "
                 "positions come before x's, which see them");
  }
  AttentionLayerPass<T> pass;
  // 1. The three projections of the same rows, all heads at once: (n, d_model) each.
  pass.query = detail::dense_linear_forward(x, w.w_q, &w.b_q);
  pass.key = detail::dense_linear_forward(x, w.w_k, &w.b_k);
  pass.value = detail::dense_linear_forward(std::move(x), w.w_v, &w.b_v);
  // 2. The heads, masked as asked (causal: position t sees 0..t), and the output projection.
  AttentionGradOptions options;
  options.scoring = Scoring::scaled_dot;
  options.causal = mask.causal;
  options.key_padding = mask.key_padding;
  attend_and_mix(pass, w, options, rows, has_past ? past : nullptr);
  return pass;
}

// dy: (n, d_model) -> dx: (n, d_model)
template <typename T>
MatrixT<T> self_attention_backward(const AttentionLayerPass<T>& pass, const MatrixT<T>& dy,
                                   AttentionLayerWeights<T>& w) {
  if (pass.output.y.rows() != pass.query.y.rows()) {
    detail::fail("self-attention backward",
                 "the pass computed the last row alone (OutputRows::last_position): only a pass "
                 "of every row can go back");
  }
  if (pass.heads[0].k.rows() != pass.key.y.rows()) {
    detail::fail("self-attention backward",
                 "the pass attended to past keys and values: only a pass of a whole sequence can "
                 "go back");
  }
  const AttentionGradients<T> g = heads_and_mix_backward(pass, dy, w);
  // x fed all three projections: its gradient is the sum of the three.
  MatrixT<T> dx = detail::dense_linear_backward(pass.query, g.dq, w.w_q, &w.b_q);
  dx += detail::dense_linear_backward(pass.key, g.dk, w.w_k, &w.b_k);
  dx += detail::dense_linear_backward(pass.value, g.dv, w.w_v, &w.b_v);
  return dx;
}

// decoder_states: (T_dec, d_model), encoder_output: (T_enc, d_model) -> y: (T_dec, d_model)
template <typename T>
AttentionLayerPass<T> cross_attention_forward(MatrixT<T> decoder_states, MatrixT<T> encoder_output,
                                              const AttentionLayerWeights<T>& w,
                                              const KeyPadding& encoder_padding,
                                              const PastKeysValues<T>* projected) {
  const char* where = "cross-attention forward";
  const int d_model = static_cast<int>(w.w_q.value.rows());
  check_heads(where, d_model, w.heads);
  const MatrixT<T>& keys_source = projected ? projected->keys : encoder_output;
  if (decoder_states.cols() != d_model || keys_source.cols() != d_model ||
      (projected && (projected->values.cols() != d_model ||
                     projected->values.rows() != projected->keys.rows()))) {
    detail::fail(where, "the decoder states are " +
                            shape_of(decoder_states.rows(), decoder_states.cols()) +
                            " and the encoder output (or its keys) " +
                            shape_of(keys_source.rows(), keys_source.cols()) +
                            ": both need d_model = " + std::to_string(d_model) + " columns");
  }
  AttentionLayerPass<T> pass;
  // 1. Queries from the decoder, keys and values from the encoder: (T_dec, d_model) and
  //    (T_enc, d_model) twice, unless they come projected.
  pass.query = detail::dense_linear_forward(std::move(decoder_states), w.w_q, &w.b_q);
  // 2. Every decoder position sees every unpadded encoder position: no causal mask.
  AttentionGradOptions options;
  options.scoring = Scoring::scaled_dot;
  options.key_padding = encoder_padding;
  if (projected) {
    // The projected keys and values stand as a "past" of every key, with no keys of the pass's
    // own: heads_forward reads them as they are.
    pass.key.y.resize(0, d_model);
    pass.value.y.resize(0, d_model);
    attend_and_mix<T>(pass, w, options, OutputRows::every_position, projected);
    return pass;
  }
  pass.key = detail::dense_linear_forward(encoder_output, w.w_k, &w.b_k);
  pass.value = detail::dense_linear_forward(std::move(encoder_output), w.w_v, &w.b_v);
  attend_and_mix<T>(pass, w, options, OutputRows::every_position, nullptr);
  return pass;
}

// encoder_output: (T_enc, d_model) -> keys, values: (T_enc, d_model)
template <typename T>
PastKeysValues<T> cross_attention_keys_values(const MatrixT<T>& encoder_output,
                                              const AttentionLayerWeights<T>& w) {
  PastKeysValues<T> kv;
  kv.keys = detail::dense_linear_forward(encoder_output, w.w_k, &w.b_k).y;
  kv.values = detail::dense_linear_forward(encoder_output, w.w_v, &w.b_v).y;
  return kv;
}

// dy: (T_dec, d_model) -> (T_dec, d_model), (T_enc, d_model)
template <typename T>
CrossAttentionGradients<T> cross_attention_backward(const AttentionLayerPass<T>& pass,
                                                    const MatrixT<T>& dy,
                                                    AttentionLayerWeights<T>& w) {
  const AttentionGradients<T> g = heads_and_mix_backward(pass, dy, w);
  CrossAttentionGradients<T> out;
  out.d_decoder_states = detail::dense_linear_backward(pass.query, g.dq, w.w_q, &w.b_q);
  // The encoder's output fed both the keys and the values.
  out.d_encoder_output = detail::dense_linear_backward(pass.key, g.dk, w.w_k, &w.b_k);
  out.d_encoder_output += detail::dense_linear_backward(pass.value, g.dv, w.w_v, &w.b_v);
  return out;
}

#define ATTN_INSTANTIATE_ATTENTION_LAYER(T)                                                    \
  template AttentionLayerWeights<T> attention_layer_weights(int, int, std::uint64_t, double,   \
                                                            const std::string&);               \
  template AttentionLayerPass<T> self_attention_forward(                                       \
      MatrixT<T>, const AttentionLayerWeights<T>&, const SelfAttentionMask&, OutputRows,       \
      const PastKeysValues<T>*);                                                               \
  template MatrixT<T> self_attention_backward(const AttentionLayerPass<T>&, const MatrixT<T>&, \
                                              AttentionLayerWeights<T>&);                      \
  template AttentionLayerPass<T> cross_attention_forward(                                      \
      MatrixT<T>, MatrixT<T>, const AttentionLayerWeights<T>&, const KeyPadding&,              \
      const PastKeysValues<T>*);                                                               \
  template PastKeysValues<T> cross_attention_keys_values(const MatrixT<T>&,                    \
                                                         const AttentionLayerWeights<T>&);     \
  template CrossAttentionGradients<T> cross_attention_backward(                                \
      const AttentionLayerPass<T>&, const MatrixT<T>&, AttentionLayerWeights<T>&);

ATTN_INSTANTIATE_ATTENTION_LAYER(float)
ATTN_INSTANTIATE_ATTENTION_LAYER(double)

}  // namespace attn

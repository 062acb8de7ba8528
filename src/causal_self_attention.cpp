#include "attn/causal_self_attention.hpp"

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

}  // namespace

template <typename T>
CausalSelfAttentionWeights<T> causal_self_attention_weights(int d_model, int heads,
                                                            std::uint64_t seed, double output_scale,
                                                            const std::string& prefix) {
  check_heads("causal self-attention weights", d_model, heads);
  const int d = d_model;
  // Unnamed until the end: w.name() gives every parameter its name.
  const auto weight = [&](std::uint64_t tag, double scale) {
    return Parameter<T>({}, detail::fan_in_uniform<T>(d, d, derive_seed(seed, tag), scale));
  };
  const auto bias = [&] { return Parameter<T>({}, MatrixT<T>::Zero(1, d)); };
  CausalSelfAttentionWeights<T> w;
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
CausalSelfAttentionPass<T> causal_self_attention_forward(MatrixT<T> x,
                                                         const CausalSelfAttentionWeights<T>& w,
                                                         OutputRows rows,
                                                         const PastKeysValues<T>* past) {
  const char* where = "causal self-attention forward";
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
  CausalSelfAttentionPass<T> pass;
  // 1. The three projections of the same rows, all heads at once: (n, d_model) each.
  pass.query = detail::dense_linear_forward(x, w.w_q, &w.b_q);
  pass.key = detail::dense_linear_forward(x, w.w_k, &w.b_k);
  pass.value = detail::dense_linear_forward(std::move(x), w.w_v, &w.b_v);
  // 2. Each head attends with its own d_k columns, scaled by 1/sqrt(d_k) and masked causally
  //    (position t sees 0..t): the core's heads of attention, whose backward pass is checked.
  //    The past's keys and values come first; x's rows are the last positions.
  AttentionGradOptions options;
  options.scoring = Scoring::scaled_dot;
  options.causal = true;
  const auto after_past = [&](const MatrixT<T>& earlier, const MatrixT<T>& now) {
    MatrixT<T> all(earlier.rows() + now.rows(), now.cols());
    all << earlier, now;
    return all;
  };
  HeadsPass<T> heads =
      has_past ? heads_forward(pass.query.y, after_past(past->keys, pass.key.y),
                               after_past(past->values, pass.value.y), w.heads, options)
               : heads_forward(pass.query.y, pass.key.y, pass.value.y, w.heads, options);
  pass.heads = std::move(heads.heads);
  // 3. The heads' outputs side by side: (n, d_model), or the last row alone.
  MatrixT<T> concat = rows == OutputRows::last_position ? MatrixT<T>(heads.output.bottomRows(1))
                                                        : std::move(heads.output);
  // 4. Mix the heads: (n or 1, d_model) -> (n or 1, d_model).
  pass.output = detail::dense_linear_forward(std::move(concat), w.w_o, &w.b_o);
  return pass;
}

// dy: (n, d_model) -> dx: (n, d_model)
template <typename T>
MatrixT<T> causal_self_attention_backward(const CausalSelfAttentionPass<T>& pass,
                                          const MatrixT<T>& dy, CausalSelfAttentionWeights<T>& w) {
  if (pass.output.y.rows() != pass.query.y.rows()) {
    detail::fail("causal self-attention backward",
                 "the pass computed the last row alone (OutputRows::last_position): only a pass "
                 "of every row can go back");
  }
  if (pass.heads[0].k.rows() != pass.query.y.rows()) {
    detail::fail("causal self-attention backward",
                 "the pass attended to past keys and values: only a pass of a whole sequence can "
                 "go back");
  }
  // 1. Back through the output projection to the concatenated heads.
  const MatrixT<T> d_concat = detail::dense_linear_backward(pass.output, dy, w.w_o, &w.b_o);
  // 2. Each head's slice of the concatenation back through its attention, into its columns of
  //    dQ, dK and dV.
  const AttentionGradients<T> g = heads_backward(pass.heads, d_concat);
  // 3. x fed all three projections: its gradient is the sum of the three.
  MatrixT<T> dx = detail::dense_linear_backward(pass.query, g.dq, w.w_q, &w.b_q);
  dx += detail::dense_linear_backward(pass.key, g.dk, w.w_k, &w.b_k);
  dx += detail::dense_linear_backward(pass.value, g.dv, w.w_v, &w.b_v);
  return dx;
}

#define ATTN_INSTANTIATE_CAUSAL_SELF_ATTENTION(T)                                              \
  template CausalSelfAttentionWeights<T> causal_self_attention_weights(                        \
      int, int, std::uint64_t, double, const std::string&);                                    \
  template CausalSelfAttentionPass<T> causal_self_attention_forward(                           \
      MatrixT<T>, const CausalSelfAttentionWeights<T>&, OutputRows, const PastKeysValues<T>*); \
  template MatrixT<T> causal_self_attention_backward(                                          \
      const CausalSelfAttentionPass<T>&, const MatrixT<T>&, CausalSelfAttentionWeights<T>&);

ATTN_INSTANTIATE_CAUSAL_SELF_ATTENTION(float)
ATTN_INSTANTIATE_CAUSAL_SELF_ATTENTION(double)

}  // namespace attn

#include "attn/attention_grad.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "checks.hpp"
#include "ordered_math.hpp"

namespace attn {
namespace {

constexpr const char* kForward = "attention forward";

// Whether query t may see key i. Under the causal mask query t stands at position
// `offset + t` of the keys' sequence (offset = n_k - n_q: the queries are its last positions).
bool visible(const AttentionGradOptions& options, Eigen::Index offset, Eigen::Index t,
             Eigen::Index i) {
  if (options.causal && i > offset + t) return false;
  return options.key_padding.empty() || options.key_padding[static_cast<size_t>(i)] == 0;
}

template <typename T>
std::string shape(const MatrixT<T>& m) {
  return shape_of(m.rows(), m.cols());
}

template <typename T>
void check_inputs(const MatrixT<T>& q, const MatrixT<T>& k, const MatrixT<T>& v,
                  const AttentionGradOptions& options, const Parameter<T>* w) {
  detail::require_non_empty(kForward, "q", q);
  detail::require_non_empty(kForward, "k", k);
  detail::require_non_empty(kForward, "v", v);
  if (q.cols() != k.cols()) {
    detail::fail(kForward, "q is " + shape(q) + " and k is " + shape(k) +
                               ": queries and keys need the same width d_k");
  }
  if (k.rows() != v.rows()) {
    detail::fail(kForward, "k is " + shape(k) + " and v is " + shape(v) +
                               ": every key needs exactly one value (same number of rows)");
  }
  const bool additive = options.scoring == Scoring::additive;
  if (additive && !w) {
    detail::fail(kForward, "additive scoring needs its weight w (1 x d_k), but none was given");
  }
  if (!additive && w) {
    detail::fail(kForward, std::string(scoring_name(options.scoring)) +
                               " scoring has no weight, but w was given");
  }
  if (additive && (w->value.rows() != 1 || w->value.cols() != q.cols())) {
    detail::fail(kForward, w->name + " is " + shape(w->value) + " but must be " +
                               shape_of(1, q.cols()) + " (1 x d_k)");
  }
  if (options.causal && q.rows() > k.rows()) {
    detail::fail(kForward,
                 "a causal mask needs at most as many queries as keys (the queries are the last "
                 "positions of the keys' sequence), but q is " +
                     shape(q) + " and k is " + shape(k));
  }
  const auto n_k = static_cast<size_t>(k.rows());
  if (!options.key_padding.empty() && options.key_padding.size() != n_k) {
    detail::fail(kForward, "key_padding has " + std::to_string(options.key_padding.size()) +
                               " flags but there are " + std::to_string(n_k) + " keys (k is " +
                               shape(k) + ")");
  }
  const Eigen::Index offset = k.rows() - q.rows();
  for (Eigen::Index t = 0; t < q.rows(); ++t) {
    bool any = false;
    for (Eigen::Index i = 0; i < k.rows() && !any; ++i) any = visible(options, offset, t, i);
    if (!any) {
      detail::fail(kForward, "query " + std::to_string(t) +
                                 " has no visible key: every key is padded or after it");
    }
  }
}

}  // namespace

const char* scoring_name(Scoring scoring) {
  switch (scoring) {
    case Scoring::additive:
      return "additive";
    case Scoring::dot:
      return "dot";
    case Scoring::scaled_dot:
      return "scaled_dot";
  }
  return "unknown";
}

// q: (n_q, d_k), k: (n_k, d_k), v: (n_k, d_v), w: (1, d_k) or null
template <typename T>
AttentionPass<T> attention_forward(MatrixT<T> q, MatrixT<T> k, MatrixT<T> v,
                                   const AttentionGradOptions& options, const Parameter<T>* w) {
  check_inputs(q, k, v, options, w);
  detail::require_finite(kForward, "q", q);
  detail::require_finite(kForward, "k", k);
  detail::require_finite(kForward, "v", v);
  const Eigen::Index n_q = q.rows(), n_k = k.rows(), d_k = q.cols(), offset = n_k - n_q;
  const T minus_inf = -std::numeric_limits<T>::infinity();
  AttentionPass<T> pass;
  pass.options = options;
  pass.scores.resize(n_q, n_k);
  if (options.scoring == Scoring::additive) {
    // 1a. Additive: a one-layer network scores each pair, e_ti = w . tanh(q_t + k_i). The hidden
    //     layer is kept for the backward pass.
    pass.hidden = MatrixT<T>::Zero(n_q * n_k, d_k);
    const T* wv = w->value.data();
    for (Eigen::Index t = 0; t < n_q; ++t) {
      for (Eigen::Index i = 0; i < n_k; ++i) {
        if (!visible(options, offset, t, i)) {
          pass.scores(t, i) = minus_inf;
          continue;
        }
        T* h = pass.hidden.row(t * n_k + i).data();
        const T* qt = q.row(t).data();
        const T* ki = k.row(i).data();
        for (Eigen::Index a = 0; a < d_k; ++a) h[a] = detail::tanh_of(qt[a] + ki[a]);
        T score = 0;
        for (Eigen::Index a = 0; a < d_k; ++a) score += wv[a] * h[a];
        pass.scores(t, i) = score;
      }
    }
  } else {
    // 1b. Dot: e_ti = q_t . k_i, divided by sqrt(d_k) when scaled: for unit-variance entries the
    //     dot product has variance d_k, and the division brings it back to 1, so that softmax
    //     does not start out saturated (where its gradient vanishes).
    pass.scores = detail::product_transposed(q, k);
    if (options.scoring == Scoring::scaled_dot) {
      pass.scores *= T(1) / std::sqrt(static_cast<T>(d_k));
    }
    // 2. Hide what the masks hide: -inf, which softmax turns into an exact 0.
    for (Eigen::Index t = 0; t < n_q; ++t) {
      for (Eigen::Index i = 0; i < n_k; ++i) {
        if (!visible(options, offset, t, i)) pass.scores(t, i) = minus_inf;
      }
    }
  }
  // 3. Each query's weights over the keys it may see.
  pass.weights = softmax_rows_forward(pass.scores);
  // 4. Each output row is the weighted average of the values: (n_q, d_v).
  pass.output = detail::product(pass.weights, v);
  pass.q = std::move(q);
  pass.k = std::move(k);
  pass.v = std::move(v);
  return pass;
}

// d_output: (n_q, d_v)
template <typename T>
AttentionGradients<T> attention_backward(const AttentionPass<T>& pass, const MatrixT<T>& d_output,
                                         Parameter<T>* w) {
  if (d_output.rows() != pass.output.rows() || d_output.cols() != pass.output.cols()) {
    detail::fail("attention backward",
                 "d_output is " + shape(d_output) + " but the output is " + shape(pass.output));
  }
  const Eigen::Index n_q = pass.q.rows(), n_k = pass.k.rows(), d_k = pass.q.cols();
  const Eigen::Index offset = n_k - n_q;
  AttentionGradients<T> g;
  // 1. output = weights · v: dL/dweights = d_output v^T, dL/dv = weights^T d_output.
  const MatrixT<T> d_weights = detail::product_transposed(d_output, pass.v);  // (n_q, n_k)
  g.dv = MatrixT<T>::Zero(n_k, pass.v.cols());
  detail::add_transposed_product(g.dv, pass.weights, d_output);
  // 2. Through the softmax; hidden pairs get exactly 0 here and so add nothing below.
  const MatrixT<T> d_scores = softmax_rows_backward(pass.weights, d_weights);  // (n_q, n_k)
  if (pass.options.scoring == Scoring::additive) {
    // 3a. e_ti = w . h_ti with h_ti = tanh(q_t + k_i): dL/dw = sum_ti de_ti h_ti, and the
    //     pre-activation's gradient de_ti w * (1 - h_ti^2) goes to both q_t and k_i.
    g.dq = MatrixT<T>::Zero(n_q, d_k);
    g.dk = MatrixT<T>::Zero(n_k, d_k);
    T* dw = w->grad.data();
    const T* wv = w->value.data();
    for (Eigen::Index t = 0; t < n_q; ++t) {
      T* dq = g.dq.row(t).data();
      for (Eigen::Index i = 0; i < n_k; ++i) {
        const T de = d_scores(t, i);
        if (!visible(pass.options, offset, t, i)) continue;
        const T* h = pass.hidden.row(t * n_k + i).data();
        T* dk = g.dk.row(i).data();
        for (Eigen::Index a = 0; a < d_k; ++a) {
          dw[a] += de * h[a];
          const T pre = de * wv[a] * (T(1) - h[a] * h[a]);
          dq[a] += pre;
          dk[a] += pre;
        }
      }
    }
  } else {
    // 3b. e = s q k^T with s = 1/sqrt(d_k) or 1: dL/dq = s de k, dL/dk = s de^T q.
    MatrixT<T> d_raw = d_scores;
    if (pass.options.scoring == Scoring::scaled_dot) {
      d_raw *= T(1) / std::sqrt(static_cast<T>(d_k));
    }
    g.dq = detail::product(d_raw, pass.k);
    g.dk = MatrixT<T>::Zero(n_k, d_k);
    detail::add_transposed_product(g.dk, d_raw, pass.q);
  }
  return g;
}

// q: (n_q, d), k: (n_k, d), v: (n_k, d)
template <typename T>
HeadsPass<T> heads_forward(const MatrixT<T>& q, const MatrixT<T>& k, const MatrixT<T>& v, int heads,
                           const AttentionGradOptions& options) {
  const Eigen::Index d = q.cols();
  if (heads < 1 || d % heads != 0) {
    detail::fail("attention heads",
                 "heads = " + std::to_string(heads) +
                     " must be a positive divisor of the width d = " + std::to_string(d));
  }
  if (k.cols() != d || v.cols() != d) {
    detail::fail("attention heads", "q is " + shape(q) + ", k is " + shape(k) + " and v is " +
                                        shape(v) + ": all three need the same width d");
  }
  if (options.scoring == Scoring::additive) {
    detail::fail("attention heads", "heads score with dot or scaled_dot, not additive");
  }
  const Eigen::Index d_k = d / heads;
  HeadsPass<T> pass;
  pass.output.resize(q.rows(), d);
  pass.heads.reserve(static_cast<size_t>(heads));
  for (int j = 0; j < heads; ++j) {
    const Eigen::Index c = j * d_k;
    pass.heads.push_back(attention_forward<T>(q.middleCols(c, d_k), k.middleCols(c, d_k),
                                              v.middleCols(c, d_k), options, nullptr));
    pass.output.middleCols(c, d_k) = pass.heads.back().output;
  }
  return pass;
}

// d_output: (n_q, d) -> dq (n_q, d), dk (n_k, d), dv (n_k, d)
template <typename T>
AttentionGradients<T> heads_backward(const std::vector<AttentionPass<T>>& heads,
                                     const MatrixT<T>& d_output) {
  const auto h = static_cast<Eigen::Index>(heads.size());
  if (h == 0 || d_output.cols() % h != 0) {
    detail::fail("attention heads backward",
                 "d_output is " + shape(d_output) + " for " + std::to_string(h) + " heads");
  }
  const Eigen::Index d_k = d_output.cols() / h, d = d_output.cols();
  AttentionGradients<T> g;
  g.dq.resize(d_output.rows(), d);
  g.dk.resize(heads[0].k.rows(), d);
  g.dv.resize(heads[0].v.rows(), d);
  for (Eigen::Index j = 0; j < h; ++j) {
    const Eigen::Index c = j * d_k;
    const AttentionGradients<T> head =
        attention_backward<T>(heads[static_cast<size_t>(j)], d_output.middleCols(c, d_k), nullptr);
    g.dq.middleCols(c, d_k) = head.dq;
    g.dk.middleCols(c, d_k) = head.dk;
    g.dv.middleCols(c, d_k) = head.dv;
  }
  return g;
}

#define ATTN_INSTANTIATE_ATTENTION_GRAD(T)                                                       \
  template AttentionPass<T> attention_forward(MatrixT<T>, MatrixT<T>, MatrixT<T>,                \
                                              const AttentionGradOptions&, const Parameter<T>*); \
  template AttentionGradients<T> attention_backward(const AttentionPass<T>&, const MatrixT<T>&,  \
                                                    Parameter<T>*);                              \
  template HeadsPass<T> heads_forward(const MatrixT<T>&, const MatrixT<T>&, const MatrixT<T>&,   \
                                      int, const AttentionGradOptions&);                         \
  template AttentionGradients<T> heads_backward(const std::vector<AttentionPass<T>>&,            \
                                                const MatrixT<T>&);

ATTN_INSTANTIATE_ATTENTION_GRAD(float)
ATTN_INSTANTIATE_ATTENTION_GRAD(double)

}  // namespace attn

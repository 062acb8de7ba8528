#include "attn/attention_grad.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "checks.hpp"
#include "dot_attention.hpp"
#include "ordered_math.hpp"

namespace attn {
namespace detail {

template <typename T>
void check_attention_inputs(const char* where, const Eigen::Ref<const MatrixT<T>>& q,
                            const Eigen::Ref<const MatrixT<T>>& k,
                            const Eigen::Ref<const MatrixT<T>>& v, bool causal,
                            const KeyPadding& key_padding) {
  require_non_empty(where, "q", q);
  require_non_empty(where, "k", k);
  require_non_empty(where, "v", v);
  const auto shape = [](const Eigen::Ref<const MatrixT<T>>& m) {
    return shape_of(m.rows(), m.cols());
  };
  if (q.cols() != k.cols()) {
    fail(where, "q is " + shape(q) + " and k is " + shape(k) +
                    ": queries and keys need the same width d_k");
  }
  if (k.rows() != v.rows()) {
    fail(where, "k is " + shape(k) + " and v is " + shape(v) +
                    ": every key needs exactly one value (same number of rows)");
  }
  if (causal && q.rows() > k.rows()) {
    fail(where,
         "a causal mask needs at most as many queries as keys (the queries are the last "
         "positions of the keys' sequence), but q is " +
             shape(q) + " and k is " + shape(k));
  }
  const Eigen::Index n_q = q.rows(), n_k = k.rows();
  if (!key_padding.empty()) {
    if (key_padding.size() != static_cast<std::size_t>(n_k)) {
      fail(where, "key_padding has " + std::to_string(key_padding.size()) +
                      " flags but there are " + std::to_string(n_k) + " keys (k is " + shape(k) +
                      ")");
    }
    Eigen::Index first_unpadded = 0;
    while (first_unpadded < n_k && key_padding[static_cast<std::size_t>(first_unpadded)] != 0) {
      ++first_unpadded;
    }
    if (first_unpadded == n_k) {
      fail(where, "key_padding marks all " + std::to_string(n_k) +
                      " keys as padding: no query has a key to attend to");
    }
    // Under the causal mask the first query sees the fewest keys: 0 .. n_k - n_q.
    if (first_unpadded >= causal_end(causal, n_q, n_k, 0)) {
      fail(where,
           "with the causal mask and key_padding, query 0 has no visible key: it sees keys "
           "0.." +
               std::to_string(n_k - n_q) + " and the first unpadded key is " +
               std::to_string(first_unpadded));
    }
  }
  require_finite(where, "q", q);
  require_finite(where, "k", k);
  require_finite(where, "v", v);
}

template void check_attention_inputs<float>(const char*, const Eigen::Ref<const MatrixT<float>>&,
                                            const Eigen::Ref<const MatrixT<float>>&,
                                            const Eigen::Ref<const MatrixT<float>>&, bool,
                                            const KeyPadding&);
template void check_attention_inputs<double>(const char*, const Eigen::Ref<const MatrixT<double>>&,
                                             const Eigen::Ref<const MatrixT<double>>&,
                                             const Eigen::Ref<const MatrixT<double>>&, bool,
                                             const KeyPadding&);

std::size_t dot_attention_scratch_size(const DotAttentionSizes& size) {
  const auto count = [](int n) { return static_cast<std::size_t>(n > 0 ? n : 0); };
  return count(size.n_k) * (count(size.d_k) + count(size.d_v));
}

namespace {

// Queries per band: the eight row sums of a band's softmax then run side by side
// (softmax_rows_into), and at n_k = 256 its scores and weights (16 kB) stay in the first-level
// cache between the steps.
constexpr int kBand = 8;

// The right operands of the two products, prepared once a call in the scratch: k^T: (d_k, n_k)
// and v: (n_k, d_v).
template <typename T>
struct Operands {
  const T* keys_t;
  const T* values;
};

// For float, both in simd_matmul.hpp's packed tiles.
Operands<float> prepare(const DotAttentionBuffers<float>& buf, const DotAttentionSizes& size) {
  float* keys_t = buf.scratch;
  float* values = keys_t + std::size_t(size.n_k) * size.d_k;
  simd::pack_right_transposed(buf.k, size.n_k, size.d_k, keys_t);
  simd::pack_right(buf.v, size.n_k, size.d_v, values);
  return {keys_t, values};
}

// For double, k^T row-major, and v as it is.
Operands<double> prepare(const DotAttentionBuffers<double>& buf, const DotAttentionSizes& size) {
  double* keys_t = buf.scratch;
  for (int i = 0; i < size.n_k; ++i) {
    for (int a = 0; a < size.d_k; ++a) {
      keys_t[std::size_t(a) * size.n_k + i] = buf.k[std::size_t(i) * size.d_k + a];
    }
  }
  return {keys_t, buf.v};
}

// c: (rows, m) = a: (rows, depth) · b: (depth, m) as prepared, all rows contiguous; each entry
// summed over depth in order.
void rows_product(const float* a, int rows, int depth, const float* b, int m, float* c) {
  simd::matmul_packed(a, depth, rows, depth, b, m, c, m);
}

void rows_product(const double* a, int rows, int depth, const double* b, int m, double* c) {
  std::fill(c, c + std::size_t(rows) * m, 0.0);
  add_product(c, a, b, rows, depth, m);
}

// Queries i .. i + rows - 1: their scores, softmax and output.
template <typename T>
void attention_band(const DotAttentionBuffers<T>& buf, const DotAttentionSizes& size,
                    const DotAttentionScores<T>& how, const Operands<T>& operands, int i,
                    int rows) {
  const int n_k = size.n_k;
  const std::size_t at = std::size_t(i) * n_k, count = std::size_t(rows) * n_k;
  T* weights = buf.weights + at;
  T* masked = buf.masked ? buf.masked + at : weights;
  T* scores = buf.scores ? buf.scores + at : masked;
  T* scaled = buf.scaled ? buf.scaled + at : masked;
  // 1. Scores: (rows, n_k) = q rows · k^T.
  rows_product(buf.q + std::size_t(i) * size.d_k, rows, size.d_k, operands.keys_t, n_k, scores);
  // 2. Scaled by 1/sqrt(d_k): for unit-variance entries q . k has variance d_k, and the division
  //    brings it back to 1, so that softmax does not start out saturated (where its gradient
  //    vanishes). Then the hidden keys get -inf, which softmax turns into an exact 0.
  if (scaled != masked) {  // the trace keeps both
    for (std::size_t e = 0; e < count; ++e) {
      const T x = scores[e] * how.scale;
      scaled[e] = x;
      masked[e] = x;
    }
  } else if (scores != masked || how.scale != T(1)) {
    for (std::size_t e = 0; e < count; ++e) masked[e] = scores[e] * how.scale;
  }
  const T minus_inf = -std::numeric_limits<T>::infinity();
  const bool padded = how.key_padding && !how.key_padding->empty();
  for (int r = 0; r < rows; ++r) {
    T* row = masked + std::size_t(r) * n_k;
    const auto visible_end = static_cast<int>(causal_end(how.causal, size.n_q, n_k, i + r));
    if (padded) {
      for (int j = 0; j < visible_end; ++j) {
        if ((*how.key_padding)[std::size_t(j)] != 0) row[j] = minus_inf;
      }
    }
    std::fill(row + visible_end, row + n_k, minus_inf);
  }
  // 3. Each query's weights over the keys it may see.
  const T* logits = masked;
  if (how.temperature != T(1)) {
    for (std::size_t e = 0; e < count; ++e) weights[e] = masked[e] / how.temperature;
    logits = weights;
  }
  const long overflowed = softmax_rows_into(logits, n_k, weights, n_k, rows, n_k);
  if (overflowed >= 0) {
    fail("attention", "the scores of query " + std::to_string(i + overflowed) +
                          " overflow to infinity: q and k are too large to compare");
  }
  // 4. Each output row is the weighted average of the values: (rows, d_v).
  rows_product(weights, rows, n_k, operands.values, size.d_v,
               buf.output + std::size_t(i) * size.d_v);
}

}  // namespace

template <typename T>
void dot_attention_forward(const DotAttentionBuffers<T>& buf, const DotAttentionSizes& size,
                           const DotAttentionScores<T>& how) {
  const Operands<T> operands = prepare(buf, size);
  int i = 0;
  for (; i + kBand <= size.n_q; i += kBand) attention_band(buf, size, how, operands, i, kBand);
  if (i < size.n_q) attention_band(buf, size, how, operands, i, size.n_q - i);
}

template void dot_attention_forward(const DotAttentionBuffers<float>&, const DotAttentionSizes&,
                                    const DotAttentionScores<float>&);
template void dot_attention_forward(const DotAttentionBuffers<double>&, const DotAttentionSizes&,
                                    const DotAttentionScores<double>&);

}  // namespace detail

namespace {

constexpr const char* kForward = "attention forward";

template <typename T>
std::string shape(const MatrixT<T>& m) {
  return shape_of(m.rows(), m.cols());
}

// The additive weight w: (1, d_k) when the scoring is additive, none otherwise.
template <typename T>
void check_additive_weight(const MatrixT<T>& q, const AttentionGradOptions& options,
                           const Parameter<T>* w) {
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
  detail::check_attention_inputs<T>(kForward, q, k, v, options.causal, options.key_padding);
  check_additive_weight(q, options, w);
  const Eigen::Index n_q = q.rows(), n_k = k.rows(), d_k = q.cols();
  AttentionPass<T> pass;
  pass.options = options;
  pass.scores.resize(n_q, n_k);
  pass.weights.resize(n_q, n_k);
  pass.output.resize(n_q, v.cols());
  if (options.scoring == Scoring::additive) {
    // Additive: a one-layer network scores each pair, e_ti = w . tanh(q_t + k_i). The hidden
    // layer is kept for the backward pass; hidden pairs get -inf.
    const T minus_inf = -std::numeric_limits<T>::infinity();
    pass.hidden = MatrixT<T>::Zero(n_q * n_k, d_k);
    const T* wv = w->value.data();
    for (Eigen::Index t = 0; t < n_q; ++t) {
      for (Eigen::Index i = 0; i < n_k; ++i) {
        if (!detail::key_visible(options.causal, options.key_padding, n_q, n_k, t, i)) {
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
    // Each query's weights over the keys it may see, and the weighted average of the values.
    pass.weights = softmax_rows_forward(pass.scores);
    pass.output = detail::product(pass.weights, v);
  } else {
    // Dot and scaled dot: the core's one dot-product attention, its masked scores kept.
    const detail::DotAttentionSizes sizes{static_cast<int>(n_q), static_cast<int>(n_k),
                                          static_cast<int>(d_k), static_cast<int>(v.cols())};
    detail::DotAttentionScores<T> how;
    if (options.scoring == Scoring::scaled_dot) how.scale = T(1) / std::sqrt(static_cast<T>(d_k));
    how.causal = options.causal;
    how.key_padding = &options.key_padding;
    std::vector<T> scratch(detail::dot_attention_scratch_size(sizes));
    detail::dot_attention_forward<T>(
        {q.data(), k.data(), v.data(), nullptr, nullptr, pass.scores.data(), pass.weights.data(),
         pass.output.data(), scratch.data()},
        sizes, how);
  }
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
        if (!detail::key_visible(pass.options.causal, pass.options.key_padding, n_q, n_k, t, i)) {
          continue;
        }
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

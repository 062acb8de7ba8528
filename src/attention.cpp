#include "attn/attention.hpp"

#include <cmath>
#include <limits>

#include "attn/softmax.hpp"
#include "checks.hpp"

namespace attn {

void check_attention_inputs(const char* where, const MatrixView& q, const MatrixView& k,
                            const MatrixView& v, const AttentionOptions& options) {
  detail::require_non_empty(where, "q", q);
  detail::require_non_empty(where, "k", k);
  detail::require_non_empty(where, "v", v);
  if (q.cols() != k.cols()) {
    detail::fail(where, "q is " + shape_of(q) + " and k is " + shape_of(k) +
                            ": queries and keys need the same width d_k");
  }
  if (k.rows() != v.rows()) {
    detail::fail(where, "k is " + shape_of(k) + " and v is " + shape_of(v) +
                            ": every key needs exactly one value (same number of rows)");
  }
  detail::require_finite(where, "q", q);
  detail::require_finite(where, "k", k);
  detail::require_finite(where, "v", v);
  detail::require_positive_temperature(where, options.temperature);
  if (options.causal && q.rows() != k.rows()) {
    detail::fail(where, "a causal mask needs as many queries as keys, but q is " + shape_of(q) +
                            " and k is " + shape_of(k));
  }
  const auto n_k = static_cast<size_t>(k.rows());
  if (!options.key_padding.empty() && options.key_padding.size() != n_k) {
    detail::fail(where, "key_padding has " + std::to_string(options.key_padding.size()) +
                            " flags but there are " + std::to_string(n_k) + " keys (k is " +
                            shape_of(k) + ")");
  }
  // Every query needs at least one key it may see. Under a causal mask query i sees keys 0..i, so
  // the first unpadded key decides for all queries at once.
  if (!options.key_padding.empty()) {
    Eigen::Index first_visible = -1;
    for (Eigen::Index j = 0; j < k.rows(); ++j) {
      if (options.key_padding[static_cast<size_t>(j)] == 0) {
        first_visible = j;
        break;
      }
    }
    if (first_visible < 0) {
      detail::fail(where, "key_padding marks all " + std::to_string(n_k) +
                              " keys as padding: no query has a key to attend to");
    }
    if (options.causal && first_visible > 0) {
      detail::fail(where,
                   "with the causal mask and key_padding, query 0 sees only padded keys "
                   "(the first unpadded key is " +
                       std::to_string(first_visible) + ")");
    }
  }
}

// q: (n_q, d_k), k: (n_k, d_k), v: (n_k, d_v)
AttentionTrace scaled_dot_product_attention(const Matrix& q, const Matrix& k, const Matrix& v,
                                            const AttentionOptions& options) {
  check_attention_inputs("attention", q, k, v, options);
  AttentionTrace trace;
  // 1. Similarity of every query with every key: (n_q, n_k).
  trace.scores.noalias() = q * k.transpose();
  // 2. Divide by sqrt(d_k): for unit-variance entries q.k has variance d_k, so this brings the
  //    scores back to variance 1 and keeps softmax out of its flat, saturated regime.
  const float scale = options.scale ? 1.0f / std::sqrt(static_cast<float>(q.cols())) : 1.0f;
  trace.scaled = trace.scores * scale;
  // 3. Hide the keys a query may not see with -inf, which softmax turns into weight 0.
  trace.masked = trace.scaled;
  const float minus_inf = -std::numeric_limits<float>::infinity();
  for (Eigen::Index i = 0; i < trace.masked.rows(); ++i) {
    for (Eigen::Index j = 0; j < trace.masked.cols(); ++j) {
      if (!key_visible(options, i, j)) trace.masked(i, j) = minus_inf;
    }
  }
  // 4. Each row becomes a distribution over keys.
  trace.weights = softmax_rows(trace.masked, options.temperature);
  // 5. Each output row is the weighted average of the values: (n_q, d_v).
  trace.output.noalias() = trace.weights * v;
  return trace;
}

}  // namespace attn

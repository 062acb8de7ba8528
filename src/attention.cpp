#include "attn/attention.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "checks.hpp"
#include "dot_attention.hpp"

namespace attn {

void check_attention_inputs(const char* where, const MatrixView& q, const MatrixView& k,
                            const MatrixView& v, const AttentionOptions& options) {
  // The page's causal mask is self-attention's: query i sees keys 0..i of the same sequence.
  if (options.causal && q.rows() != k.rows()) {
    detail::fail(where, "a causal mask needs as many queries as keys, but q is " + shape_of(q) +
                            " and k is " + shape_of(k));
  }
  detail::check_attention_inputs<float>(where, q, k, v, options.causal, options.key_padding);
  detail::require_positive_temperature(where, options.temperature);
}

namespace {

// attention_kernel after its checks: the core's one dot-product attention into the buffers.
void checked_attention(const AttentionBuffers& buf, const AttentionSizes& size,
                       const AttentionOptions& options) {
  detail::DotAttentionScores<float> how;
  if (options.scale) how.scale = 1.0f / std::sqrt(static_cast<float>(size.d_k));
  how.temperature = options.temperature;
  how.causal = options.causal;
  how.key_padding = &options.key_padding;
  detail::dot_attention_forward<float>({buf.q, buf.k, buf.v, buf.scores, buf.scaled, buf.masked,
                                        buf.weights, buf.output, buf.scratch},
                                       {size.n_q, size.n_k, size.d_k, size.d_v}, how);
}

}  // namespace

void attention_kernel(const AttentionBuffers& buf, const AttentionSizes& size,
                      const AttentionOptions& options) {
  constexpr const char* kWhere = "attention";
  if (size.n_q <= 0 || size.n_k <= 0 || size.d_k <= 0 || size.d_v <= 0) {
    detail::fail(kWhere, "every size must be at least 1, got n_q=" + std::to_string(size.n_q) +
                             ", n_k=" + std::to_string(size.n_k) + ", d_k=" +
                             std::to_string(size.d_k) + ", d_v=" + std::to_string(size.d_v));
  }
  using ConstMap = Eigen::Map<const Matrix>;
  check_attention_inputs(kWhere, ConstMap(buf.q, size.n_q, size.d_k),
                         ConstMap(buf.k, size.n_k, size.d_k), ConstMap(buf.v, size.n_k, size.d_v),
                         options);
  checked_attention(buf, size, options);
}

std::size_t attention_scratch_size(const AttentionSizes& size) {
  return detail::dot_attention_scratch_size({size.n_q, size.n_k, size.d_k, size.d_v});
}

// q: (n_q, d_k), k: (n_k, d_k), v: (n_k, d_v)
AttentionTrace scaled_dot_product_attention(const Matrix& q, const Matrix& k, const Matrix& v,
                                            const AttentionOptions& options) {
  // Checked once, here: the sizes below are read off the checked shapes.
  check_attention_inputs("attention", q, k, v, options);
  const AttentionSizes size{static_cast<int>(q.rows()), static_cast<int>(k.rows()),
                            static_cast<int>(q.cols()), static_cast<int>(v.cols())};
  AttentionTrace trace;
  trace.scores.resize(q.rows(), k.rows());
  trace.scaled.resize(q.rows(), k.rows());
  trace.masked.resize(q.rows(), k.rows());
  trace.weights.resize(q.rows(), k.rows());
  trace.output.resize(q.rows(), v.cols());
  std::vector<float> scratch(attention_scratch_size(size));
  checked_attention(
      {q.data(), k.data(), v.data(), trace.scores.data(), trace.scaled.data(), trace.masked.data(),
       trace.weights.data(), trace.output.data(), scratch.data()},
      size, options);
  return trace;
}

}  // namespace attn

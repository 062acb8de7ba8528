#include "attn/multi_head.hpp"

#include <utility>

#include "attn/attention_grad.hpp"
#include "checks.hpp"
#include "ordered_math.hpp"

namespace attn {
namespace {

constexpr const char* kWhere = "multi-head attention";

void check_weight(const char* name, const Matrix& w, Eigen::Index d_model) {
  if (w.rows() != d_model || w.cols() != d_model) {
    detail::fail(kWhere, std::string(name) + " is " + shape_of(w) + " but must be " +
                             shape_of(d_model, d_model) + " (d_model x d_model)");
  }
  detail::require_finite(kWhere, name, w);
}

void check_bias(const char* name, const Vector& b, Eigen::Index d_model) {
  if (b.size() != 0 && b.size() != d_model) {
    detail::fail(kWhere,
                 std::string(name) + " has " + std::to_string(b.size()) +
                     " entries but must be empty or have d_model = " + std::to_string(d_model));
  }
  detail::require_finite(kWhere, name, b);
}

// x: (n, d_model) · w: (d_model, d_model) + b -> (n, d_model), on the core's product
Matrix project(const Matrix& x, const Matrix& w, const Vector& b) {
  Matrix y = detail::product(x, w);
  if (b.size() != 0) y.rowwise() += b.transpose();
  return y;
}

}  // namespace

// x_q: (n_q, d_model), x_kv: (n_k, d_model)
MultiHeadTrace multi_head_attention(const Matrix& x_q, const Matrix& x_kv, int heads,
                                    const MultiHeadWeights& weights,
                                    const MultiHeadOptions& options) {
  detail::require_non_empty(kWhere, "x_q", x_q);
  detail::require_non_empty(kWhere, "x_kv", x_kv);
  const Eigen::Index d_model = x_q.cols();
  if (x_kv.cols() != d_model) {
    detail::fail(kWhere, "x_q is " + shape_of(x_q) + " and x_kv is " + shape_of(x_kv) +
                             ": both need d_model columns");
  }
  if (heads < 1 || d_model % heads != 0) {
    detail::fail(kWhere, "heads = " + std::to_string(heads) + " must be a positive divisor of " +
                             "d_model = " + std::to_string(d_model));
  }
  detail::require_finite(kWhere, "x_q", x_q);
  detail::require_finite(kWhere, "x_kv", x_kv);
  // The inputs as every head sees them (a causal mask needs n_q == n_k; key padding n_k flags,
  // not all set), checked once for all heads with the messages of the page's attention.
  AttentionOptions checked;
  checked.causal = options.causal;
  checked.key_padding = options.key_padding;
  check_attention_inputs(kWhere, x_q, x_kv, x_kv, checked);
  check_weight("w_q", weights.w_q, d_model);
  check_weight("w_k", weights.w_k, d_model);
  check_weight("w_v", weights.w_v, d_model);
  check_weight("w_o", weights.w_o, d_model);
  check_bias("b_q", weights.b_q, d_model);
  check_bias("b_k", weights.b_k, d_model);
  check_bias("b_v", weights.b_v, d_model);
  check_bias("b_o", weights.b_o, d_model);

  // 1. Project once at full width; each head then reads its own block of columns.
  const Matrix q = project(x_q, weights.w_q, weights.b_q);   // (n_q, d_model)
  const Matrix k = project(x_kv, weights.w_k, weights.b_k);  // (n_k, d_model)
  const Matrix v = project(x_kv, weights.w_v, weights.b_v);  // (n_k, d_model)

  // 2. Each head attends in its own d_k-wide subspace: the core's heads of scaled dot-product
  //    attention (attention_grad.hpp), as the language model's heads are.
  AttentionGradOptions head_options;
  head_options.scoring = Scoring::scaled_dot;
  head_options.causal = options.causal;
  head_options.key_padding = options.key_padding;
  HeadsPass<float> heads_pass = heads_forward(q, k, v, heads, head_options);
  MultiHeadTrace trace;
  for (AttentionPass<float>& head : heads_pass.heads) {
    trace.heads.push_back({std::move(head.weights), std::move(head.output)});
  }
  // 3. Mix the heads back together.
  trace.output = project(heads_pass.output, weights.w_o, weights.b_o);
  return trace;
}

}  // namespace attn

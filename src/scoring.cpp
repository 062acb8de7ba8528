#include "attn/scoring.hpp"

#include <utility>

#include "attn/attention_grad.hpp"
#include "checks.hpp"
#include "ordered_math.hpp"

namespace attn {
namespace {

// query: (1, d) the decoder state as the scoring sees it, keys: (N, d) the encoder states as it
// sees them, h: (N, d_h) -> scores, weights and context: the core's attention (attention_grad.hpp)
// of the one query over the N keys, with the encoder states as values. w: (1, d) for additive
// scoring, else null.
ScoreResult attend(Matrix query, Matrix keys, const Matrix& h, Scoring scoring,
                   const Parameter<float>* w) {
  AttentionGradOptions options;
  options.scoring = scoring;
  const AttentionPass<float> pass =
      attention_forward<float>(std::move(query), std::move(keys), h, options, w);
  ScoreResult result;
  result.scores = pass.scores.row(0).transpose();
  result.weights = pass.weights.row(0).transpose();
  result.context = pass.output.row(0).transpose();
  return result;
}

void check_states(const char* where, const Vector& s, const Matrix& h) {
  detail::require_non_empty(where, "h", h);
  if (s.size() == 0) detail::fail(where, "s (the decoder state) is empty");
  detail::require_finite(where, "s", s);
  detail::require_finite(where, "h", h);
}

void check_shape(const char* where, const char* name, const Matrix& m, Eigen::Index rows,
                 Eigen::Index cols, const char* why) {
  if (m.rows() != rows || m.cols() != cols) {
    detail::fail(where, std::string(name) + " is " + shape_of(m) + " but must be " +
                            shape_of(rows, cols) + " (" + why + ")");
  }
  detail::require_finite(where, name, m);
}

}  // namespace

// s: (d_s), h: (N, d_h), w_s: (d_a, d_s), w_h: (d_a, d_h), v: (d_a)
ScoreResult additive_score(const Vector& s, const Matrix& h, const Matrix& w_s, const Matrix& w_h,
                           const Vector& v) {
  constexpr const char* kWhere = "additive score";
  check_states(kWhere, s, h);
  if (v.size() == 0) detail::fail(kWhere, "v is empty; it sets the attention size d_a");
  detail::require_finite(kWhere, "v", v);
  const Eigen::Index d_a = v.size();
  check_shape(kWhere, "w_s", w_s, d_a, s.size(), "d_a x d_s");
  check_shape(kWhere, "w_h", w_h, d_a, h.cols(), "d_a x d_h");
  // The query W_s s: (1, d_a) and the keys W_h h_j: (N, d_a); e_j = v . tanh(query + key j).
  const Matrix state = s.transpose();
  const Parameter<float> w("v", v.transpose());
  return attend(detail::product_transposed(state, w_s), detail::product_transposed(h, w_h), h,
                Scoring::additive, &w);
}

// s: (d_s), h: (N, d_h), d_s == d_h
ScoreResult dot_score(const Vector& s, const Matrix& h) {
  constexpr const char* kWhere = "dot score";
  check_states(kWhere, s, h);
  if (s.size() != h.cols()) {
    detail::fail(kWhere, "s has " + std::to_string(s.size()) + " entries but h is " + shape_of(h) +
                             ": dot scoring needs d_s == d_h");
  }
  return attend(s.transpose(), h, h, Scoring::dot, nullptr);  // e_j = h_j . s
}

// s: (d_s), h: (N, d_h), w: (d_s, d_h)
ScoreResult general_score(const Vector& s, const Matrix& h, const Matrix& w) {
  constexpr const char* kWhere = "general score";
  check_states(kWhere, s, h);
  check_shape(kWhere, "w", w, s.size(), h.cols(), "d_s x d_h");
  // e_j = s . (W h_j) = (s^T W) . h_j: the query s^T W, (1, d_h).
  const Matrix state = s.transpose();
  return attend(detail::product(state, w), h, h, Scoring::dot, nullptr);
}

}  // namespace attn

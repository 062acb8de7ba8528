#include "attn/scoring.hpp"

#include "attn/softmax.hpp"
#include "checks.hpp"

namespace attn {
namespace {

// From scores e: (N) and encoder states h: (N, d_h), the weights and the context vector.
ScoreResult weigh(Vector scores, const Matrix& h) {
  ScoreResult result;
  // The core's row softmax, on the scores as one row: (1, N).
  const MatrixT<float> row = scores.transpose();
  result.weights = softmax_rows_forward(row).row(0).transpose();
  result.context = h.transpose() * result.weights;  // (d_h) = sum_j alpha_j h_j
  result.scores = std::move(scores);
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
  // Row j of `projected` is (W_h h_j + W_s s)^T: (N, d_a).
  const Eigen::RowVectorXf query_part = (w_s * s).transpose();
  Matrix projected = h * w_h.transpose();
  projected.rowwise() += query_part;
  return weigh(projected.array().tanh().matrix() * v, h);  // e_j = v . tanh(...)
}

// s: (d_s), h: (N, d_h), d_s == d_h
ScoreResult dot_score(const Vector& s, const Matrix& h) {
  constexpr const char* kWhere = "dot score";
  check_states(kWhere, s, h);
  if (s.size() != h.cols()) {
    detail::fail(kWhere, "s has " + std::to_string(s.size()) + " entries but h is " + shape_of(h) +
                             ": dot scoring needs d_s == d_h");
  }
  return weigh(h * s, h);  // e_j = h_j . s
}

// s: (d_s), h: (N, d_h), w: (d_s, d_h)
ScoreResult general_score(const Vector& s, const Matrix& h, const Matrix& w) {
  constexpr const char* kWhere = "general score";
  check_states(kWhere, s, h);
  check_shape(kWhere, "w", w, s.size(), h.cols(), "d_s x d_h");
  return weigh(h * (w.transpose() * s), h);  // e_j = h_j . (W^T s) = s . (W h_j)
}

}  // namespace attn

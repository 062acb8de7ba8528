#include "attn/softmax.hpp"

#include <cmath>
#include <limits>

#include "checks.hpp"

namespace attn {

// x: (rows, cols) -> (rows, cols)
Matrix softmax_rows(const Matrix& x, float temperature) {
  constexpr const char* kWhere = "softmax";
  detail::require_non_empty(kWhere, "x", x);
  detail::require_positive_temperature(kWhere, temperature);
  const float minus_inf = -std::numeric_limits<float>::infinity();
  if (x.array().isNaN().any() || (x.array() == -minus_inf).any()) {
    detail::fail(kWhere, "x (" + shape_of(x) + ") contains NaN or +infinity");
  }

  Matrix weights(x.rows(), x.cols());
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    // 1. The largest visible logit. Subtracting it changes nothing mathematically (softmax is
    //    shift-invariant) and keeps exp() from overflowing: numerical stability only.
    const float row_max = x.row(i).maxCoeff();
    if (row_max == minus_inf) {
      detail::fail(kWhere, "row " + std::to_string(i) + " of x (" + shape_of(x) +
                               ") is entirely -infinity: no entry can receive weight");
    }
    // 2. Exponentiate the shifted, temperature-divided logits; masked (-inf) entries are written
    //    as exact zeros rather than left to exp(), which some vectorised versions clamp.
    float total = 0.0f;
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      const float logit = x(i, j);
      const float e = logit == minus_inf ? 0.0f : std::exp((logit - row_max) / temperature);
      weights(i, j) = e;
      total += e;
    }
    // 3. Normalise; total >= 1 because the maximum contributes exp(0).
    weights.row(i) /= total;
  }
  return weights;
}

}  // namespace attn

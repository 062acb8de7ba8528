#include "attn/softmax.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "checks.hpp"
#include "ordered_math.hpp"
#include "simd.hpp"

namespace attn {

// x: (rows, cols) -> (rows, cols)
template <typename T>
MatrixT<T> softmax_rows_forward(const MatrixT<T>& x) {
  const T minus_inf = -std::numeric_limits<T>::infinity();
  MatrixT<T> w(x.rows(), x.cols());
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    // 1. The largest entry, subtracted so that no exp overflows (numerical stability only).
    T top = minus_inf;
    Eigen::Index c = 0;
    if constexpr (std::is_same_v<T, float>) {
      // The largest of four lanes at a time: the same value in any order, as the entries are
      // never NaN (finite, or -inf where masked).
      simd::f32x4 lanes = simd::splat(minus_inf);
      for (; c + 4 <= x.cols(); c += 4) lanes = simd::max(lanes, simd::load(x.row(r).data() + c));
      top = simd::max(lanes);
    }
    for (; c < x.cols(); ++c) top = x(r, c) > top ? x(r, c) : top;
    if (!(top > minus_inf) || !std::isfinite(top)) {
      detail::fail("softmax forward", "row " + std::to_string(r) + " of x (" +
                                          shape_of(x.rows(), x.cols()) +
                                          ") has no finite entry to put weight on");
    }
    // 2. Exponentials, exactly 0 for masked entries; the sum in order, so every build agrees.
    //    For float, four at a time first: simd::portable_exp gives detail::exp_of's bits lane by
    //    lane, and -inf (masked) minus the top is -inf, which it turns into exactly 0.
    T total = 0;
    c = 0;
    if constexpr (std::is_same_v<T, float>) {
      const simd::f32x4 shift = simd::splat(top);
      float* row = w.row(r).data();
      for (; c + 4 <= x.cols(); c += 4) {
        simd::store(row + c, simd::portable_exp(simd::load(x.row(r).data() + c) - shift));
      }
      for (Eigen::Index i = 0; i < c; ++i) total += row[i];
    }
    for (; c < x.cols(); ++c) {
      const T e = x(r, c) == minus_inf ? T(0) : detail::exp_of(x(r, c) - top);
      w(r, c) = e;
      total += e;
    }
    // 3. Normalise; total >= 1, since the largest entry contributes e^0.
    c = 0;
    if constexpr (std::is_same_v<T, float>) {
      float* row = w.row(r).data();
      for (; c + 4 <= x.cols(); c += 4)
        simd::store(row + c, simd::load(row + c) / simd::splat(total));
    }
    for (; c < x.cols(); ++c) w(r, c) /= total;
  }
  return w;
}

// weights, d_weights: (rows, cols) -> (rows, cols)
template <typename T>
MatrixT<T> softmax_rows_backward(const MatrixT<T>& weights, const MatrixT<T>& d_weights) {
  if (weights.rows() != d_weights.rows() || weights.cols() != d_weights.cols()) {
    detail::fail("softmax backward",
                 "weights is " + shape_of(weights.rows(), weights.cols()) + " but d_weights is " +
                     shape_of(d_weights.rows(), d_weights.cols()) + ": they must match");
  }
  MatrixT<T> dx(weights.rows(), weights.cols());
  for (Eigen::Index r = 0; r < weights.rows(); ++r) {
    // The Jacobian of softmax is diag(w) - w w^T, so dx = w * (dw - w . dw).
    T inner = 0;
    for (Eigen::Index c = 0; c < weights.cols(); ++c) inner += weights(r, c) * d_weights(r, c);
    for (Eigen::Index c = 0; c < weights.cols(); ++c) {
      // A masked entry has w = 0 and gets exactly 0 (not a product that might be -0 or NaN).
      dx(r, c) = weights(r, c) == T(0) ? T(0) : weights(r, c) * (d_weights(r, c) - inner);
    }
  }
  return dx;
}

// x: (rows, cols) -> (rows, cols)
Matrix softmax_rows(const Matrix& x, float temperature) {
  constexpr const char* kWhere = "softmax";
  detail::require_non_empty(kWhere, "x", x);
  detail::require_positive_temperature(kWhere, temperature);
  const float minus_inf = -std::numeric_limits<float>::infinity();
  if (x.array().isNaN().any() || (x.array() == -minus_inf).any()) {
    detail::fail(kWhere, "x (" + shape_of(x) + ") contains NaN or +infinity");
  }
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    if (x.row(i).maxCoeff() == minus_inf) {
      detail::fail(kWhere, "row " + std::to_string(i) + " of x (" + shape_of(x) +
                               ") is entirely -infinity: no entry can receive weight");
    }
  }
  // Dividing by T > 0 leaves a masked -inf entry -inf, and the row's largest entry largest.
  if (temperature == 1.0f) return softmax_rows_forward(x);
  return softmax_rows_forward<float>(x / temperature);
}

template Matrix softmax_rows_forward(const Matrix&);
template MatrixT<double> softmax_rows_forward(const MatrixT<double>&);
template Matrix softmax_rows_backward(const Matrix&, const Matrix&);
template MatrixT<double> softmax_rows_backward(const MatrixT<double>&, const MatrixT<double>&);

}  // namespace attn

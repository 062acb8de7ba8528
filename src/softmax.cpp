#include "attn/softmax.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "checks.hpp"
#include "ordered_math.hpp"
#include "row_softmax.hpp"
#include "simd.hpp"

namespace attn {

namespace detail {
namespace {

// For float, the vectors below run over as many lanes as the target has (simd::f32xw): each
// operation is lane-wise, so every width gives the same bits.
constexpr long kLanes = ATTN_WIDE_LANES;
using Lanes = simd::f32xw;

// x: (cols) -> its largest entry: the same value in any order, as the entries are never NaN
// (finite, -inf where masked, or +inf after an overflow). For float, a vector at a time first.
template <typename T>
T row_maximum(const T* x, long cols) {
  T top = -std::numeric_limits<T>::infinity();
  long c = 0;
  if constexpr (std::is_same_v<T, float>) {
    Lanes lanes = simd::splat<Lanes>(top);
    for (; c + kLanes <= cols; c += kLanes) {
      lanes = simd::max_lanes(lanes, simd::load<Lanes>(x + c));
    }
    top = simd::max_lane(lanes);
  }
  for (; c < cols; ++c) top = x[c] > top ? x[c] : top;
  return top;
}

// x, w: (cols), w may be x -> w_c = exp(x_c - top), exactly 0 for x_c = -inf. For float, a vector
// at a time first: simd::portable_exp gives exp_of's bits lane by lane, and -inf (masked) minus
// the top is -inf, which it turns into exactly 0. Each x_c is read before w_c is written.
template <typename T>
void row_exponentials(const T* x, long cols, T top, T* w) {
  long c = 0;
  if constexpr (std::is_same_v<T, float>) {
    const Lanes shift = simd::splat<Lanes>(top);
    for (; c + kLanes <= cols; c += kLanes) {
      simd::store(w + c, simd::portable_exp(simd::load<Lanes>(x + c) - shift));
    }
  }
  const T minus_inf = -std::numeric_limits<T>::infinity();
  for (; c < cols; ++c) w[c] = x[c] == minus_inf ? T(0) : exp_of(x[c] - top);
}

// total[g] = the sum of row g of w, g < G, each in order of c. The G sums run side by side, so
// that each addition waits for the one before it in its own row only.
template <int G, typename T>
void row_sums(const T* w, long w_stride, long cols, T* total) {
  T sum[G] = {};
  for (long c = 0; c < cols; ++c) {
    for (int g = 0; g < G; ++g) sum[g] += w[g * w_stride + c];
  }
  for (int g = 0; g < G; ++g) total[g] = sum[g];
}

// w: (cols) *= scale / total (total >= 1: the largest entry contributes e^0). One division a row
// and a product an entry, which costs far less than a division an entry, for a rounding of at
// most one more unit in the last place.
template <typename T>
void normalise_row(T* w, long cols, T scale, T total) {
  const T inverse = scale / total;
  long c = 0;
  if constexpr (std::is_same_v<T, float>) {
    const Lanes factor = simd::splat<Lanes>(inverse);
    for (; c + kLanes <= cols; c += kLanes) {
      simd::store(w + c, simd::load<Lanes>(w + c) * factor);
    }
  }
  for (; c < cols; ++c) w[c] *= inverse;
}

}  // namespace

template <typename T>
long softmax_rows_into(const T* x, long x_stride, T* w, long w_stride, long rows, long cols,
                       T scale, T* tops, T* sums) {
  constexpr long kGroup = 8;  // rows whose sums run side by side
  for (long r0 = 0; r0 < rows; r0 += kGroup) {
    const long group = rows - r0 < kGroup ? rows - r0 : kGroup;
    T* w0 = w + r0 * w_stride;
    // 1. Each row's largest entry, subtracted so that no exp overflows (numerical stability
    //    only: softmax does not change when a constant is added to a row), and the exponentials.
    for (long g = 0; g < group; ++g) {
      const T* xr = x + (r0 + g) * x_stride;
      const T top = row_maximum(xr, cols);
      if (!std::isfinite(top)) return r0 + g;
      if (tops != nullptr) tops[r0 + g] = top;
      row_exponentials(xr, cols, top, w0 + g * w_stride);
    }
    // 2. The sums, in order, so every build agrees.
    T total[kGroup];
    if (group == kGroup) {
      row_sums<kGroup>(w0, w_stride, cols, total);
    } else {
      for (long g = 0; g < group; ++g) row_sums<1>(w0 + g * w_stride, w_stride, cols, total + g);
    }
    // 3. Normalise.
    for (long g = 0; g < group; ++g) {
      if (sums != nullptr) sums[r0 + g] = total[g];
      normalise_row(w0 + g * w_stride, cols, scale, total[g]);
    }
  }
  return -1;
}

template long softmax_rows_into(const float*, long, float*, long, long, long, float, float*,
                                float*);
template long softmax_rows_into(const double*, long, double*, long, long, long, double, double*,
                                double*);

}  // namespace detail

// x: (rows, cols) -> (rows, cols)
template <typename T>
MatrixT<T> softmax_rows_forward(const MatrixT<T>& x) {
  MatrixT<T> w(x.rows(), x.cols());
  const long bad =
      detail::softmax_rows_into(x.data(), x.cols(), w.data(), w.cols(), x.rows(), x.cols());
  if (bad >= 0) {
    detail::fail("softmax forward", "row " + std::to_string(bad) + " of x (" +
                                        shape_of(x.rows(), x.cols()) +
                                        ") has no finite entry to put weight on");
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

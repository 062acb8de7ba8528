// Matrix products, sums, exp and tanh for training, written so that every build rounds alike.
// Private to src/.
//
// Training must give the same loss curve natively (-march=native) and in wasm. Eigen's products
// and reductions pick their summation order by the vector width of the target (AVX-512 natively,
// none in wasm), and the C libraries' exp and tanh differ in the last bit; a few such bits per
// step grow into a different curve after hundreds of steps. So every sum here runs in one order
// fixed by the loops below: products are written as rows of y[j] += a * b[j] (the compiler may
// vectorise over j, which changes no rounding, and -ffp-contract=off keeps it from fusing the
// multiply and the add); for float they run through simd_matmul.hpp's kernel, which sums each
// entry in that same order; exp and tanh for float, and exp for double, are computed from
// + - * / only.
// Elementwise Eigen expressions (a + b, a * b, scaling) round the same everywhere and are used
// freely elsewhere.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "attn/layers.hpp"
#include "simd_matmul.hpp"

namespace attn::detail {

// c: (n, m) += a: (n, k) · b: (k, m), all contiguous row-major. Row i of c gets
// a(i, 0) b(0, :), then a(i, 1) b(1, :), ...: the order of the sum over k is fixed.
template <typename T>
void add_product(T* c, const T* a, const T* b, int n, int k, int m) {
  for (int i = 0; i < n; ++i) {
    T* ci = c + static_cast<long>(i) * m;
    const T* ai = a + static_cast<long>(i) * k;
    for (int p = 0; p < k; ++p) {
      const T s = ai[p];
      const T* bp = b + static_cast<long>(p) * m;
      for (int j = 0; j < m; ++j) ci[j] += s * bp[j];
    }
  }
}

// c: (k, m) += a^T · b with a: (n, k), b: (n, m): row p of c gets a(0, p) b(0, :), then
// a(1, p) b(1, :), ...
template <typename T>
void add_transposed_product(T* c, const T* a, const T* b, int n, int k, int m) {
  for (int i = 0; i < n; ++i) {
    const T* ai = a + static_cast<long>(i) * k;
    const T* bi = b + static_cast<long>(i) * m;
    for (int p = 0; p < k; ++p) {
      const T s = ai[p];
      T* cp = c + static_cast<long>(p) * m;
      for (int j = 0; j < m; ++j) cp[j] += s * bi[j];
    }
  }
}

// a: (n, k) -> (k, n)
template <typename T>
MatrixT<T> transposed(const MatrixT<T>& a) {
  MatrixT<T> t(a.cols(), a.rows());
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    for (Eigen::Index j = 0; j < a.cols(); ++j) t(j, i) = a(i, j);
  }
  return t;
}

// a: (n, k) · b: (k, m) -> (n, m). For float, simd::matmul: each entry summed over k from 0 in
// the same order, one multiply and one add at a time, so the bits of add_product's loops in every
// build, many times faster.
template <typename T>
MatrixT<T> product(const MatrixT<T>& a, const MatrixT<T>& b) {
  if constexpr (std::is_same_v<T, float>) {
    MatrixT<T> c(a.rows(), b.cols());
    simd::matmul(a.data(), static_cast<int>(a.rows()), static_cast<int>(a.cols()), b.data(),
                 static_cast<int>(b.cols()), c.data());
    return c;
  }
  MatrixT<T> c = MatrixT<T>::Zero(a.rows(), b.cols());
  add_product(c.data(), a.data(), b.data(), static_cast<int>(a.rows()), static_cast<int>(a.cols()),
              static_cast<int>(b.cols()));
  return c;
}

// a: (n, k) · b^T with b: (m, k) -> (n, m), through an explicit transpose of b.
template <typename T>
MatrixT<T> product_transposed(const MatrixT<T>& a, const MatrixT<T>& b) {
  return product(a, transposed(b));
}

// c: (k, m) += a^T · b with a: (n, k), b: (n, m)
// For float through simd::add_transposed_matmul, with add_transposed_product's bits.
template <typename T>
void add_transposed_product(MatrixT<T>& c, const MatrixT<T>& a, const MatrixT<T>& b) {
  if constexpr (std::is_same_v<T, float>) {
    simd::add_transposed_matmul(a.data(), static_cast<int>(a.rows()), static_cast<int>(a.cols()),
                                b.data(), static_cast<int>(b.cols()), c.data());
    return;
  }
  add_transposed_product(c.data(), a.data(), b.data(), static_cast<int>(a.rows()),
                         static_cast<int>(a.cols()), static_cast<int>(b.cols()));
}

// sums: (1, m) += the column sums of a: (n, m), rows in order.
template <typename T>
void add_column_sums(MatrixT<T>& sums, const MatrixT<T>& a) {
  const long m = a.cols();
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    const T* ai = a.data() + i * m;
    for (long j = 0; j < m; ++j) sums.data()[j] += ai[j];
  }
}

// -> sum of x[0..n) from left to right.
template <typename T>
T ordered_sum(const T* x, long n) {
  T total = 0;
  for (long i = 0; i < n; ++i) total += x[i];
  return total;
}

// e^x for float from + - * / and an exact scaling by a power of two, the same bits in every build.
// Relative error below 2e-7; 0 below -87 (under the smallest normal float, and where softmax
// weights stop mattering); clamped at 88.
inline float portable_exp(float x) {
  if (!(x > -87.0f)) return 0.0f;  // also -inf
  if (x > 88.0f) x = 88.0f;
  // 1. x = k ln 2 + r with |r| <= ln(2) / 2; ln 2 is split so that k * kLn2High is exact.
  constexpr float kLn2High = 0.693359375f, kLn2Low = -2.12194440e-4f;
  const float k = std::floor(x * 1.44269504f + 0.5f);
  const float r = (x - k * kLn2High) - k * kLn2Low;
  // 2. e^r by its Taylor series to r^7 / 7! (the next term is below 3e-8 for |r| <= 0.35).
  float p = 1.0f / 5040;
  p = p * r + 1.0f / 720;
  p = p * r + 1.0f / 120;
  p = p * r + 1.0f / 24;
  p = p * r + 1.0f / 6;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  // 3. Times 2^k, built from its bits (k in [-126, 127] here).
  const std::uint32_t bits = static_cast<std::uint32_t>(static_cast<int>(k) + 127) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return p * scale;
}

// e^x for double and x <= 0, from + - * / and an exact scaling by a power of two, the same bits in
// every build (the C libraries' exp do not promise that): the bottleneck experiment's weights,
// whose sums must agree natively and in wasm. 0 below -700 (e^-700 is 1e-304: such a weight
// cannot change a sum that holds a term of 1). A NaN, which a caller's non-finite logits can
// produce, gives NaN, and anything above 700 +infinity, so that no power of two is taken outside
// int's range.
inline double portable_exp(double x) {
  if (std::isnan(x)) return x;
  if (x > 700.0) return std::numeric_limits<double>::infinity();
  if (x < -700.0) return 0.0;
  // 1. x = k ln 2 + r with |r| <= ln(2) / 2; ln 2 is split so that k * kLn2High is exact.
  constexpr double kLn2High = 6.93147180369123816490e-01, kLn2Low = 1.90821492927058770002e-10;
  const double k = std::floor(x * 1.4426950408889634 + 0.5);
  const double r = (x - k * kLn2High) - k * kLn2Low;
  // 2. e^r = 1 + r (1 + r/2 (1 + r/3 (... (1 + r/13)))): the first term left out, r^14 / 14!, is
  //    below 1e-17 for |r| <= 0.35.
  double series = 1.0;
  for (int n = 13; n >= 1; --n) series = 1.0 + series * r / n;
  return std::ldexp(series, static_cast<int>(k));
}

// tanh(x) for float, the same bits in every build; absolute error below 3e-7.
inline float portable_tanh(float x) {
  const float a = std::fabs(x);
  float t;
  if (a < 0.125f) {
    // Near 0, the odd series: x (1 - x^2/3 + 2x^4/15 - 17x^6/315); the next term is 1e-10 here.
    const float x2 = a * a;
    t = a * (1.0f + x2 * (-1.0f / 3 + x2 * (2.0f / 15 + x2 * (-17.0f / 315))));
  } else {
    // tanh a = (1 - e^(-2a)) / (1 + e^(-2a)), with e^(-2a) in (0, 0.78]: no overflow, and the
    // subtraction loses at most 3 bits.
    const float e = portable_exp(-2.0f * a);
    t = (1.0f - e) / (1.0f + e);
  }
  return x < 0 ? -t : t;
}

// The scalar functions training uses: for float the portable ones above, for double (the gradient
// checks) the standard library's, which are accurate to the last bit or so.
inline float exp_of(float x) { return portable_exp(x); }
inline double exp_of(double x) { return std::exp(x); }
inline float tanh_of(float x) { return portable_tanh(x); }
inline double tanh_of(double x) { return std::tanh(x); }

}  // namespace attn::detail

// The linear layer, y = x W + b, forward and backward, written once on a choice of matrix
// products. Private to src/.
//
// layers.hpp's linear layer uses the products of ordered_math.hpp, which sum in an order fixed by
// the core's own loops, so that the small reversal and translation models give the same bits
// natively and in wasm. The language model does not need that (only a native run must repeat
// itself from a seed, and Eigen's single-threaded products do: same build, same order), but it
// spends almost all its time in products: Eigen's blocked, vectorised kernels run them several
// times faster (DenseProducts, through dense_linear_forward and dense_linear_backward). In wasm,
// where Eigen has no simd128 kernels, its float products go through simd_matmul.hpp instead.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "attn/layers.hpp"
#include "checks.hpp"
#include "initial_weights.hpp"
#include "ordered_math.hpp"
#include "simd_matmul.hpp"

namespace attn::detail {

// The language model's matrix products. In wasm, float products go through simd_matmul.hpp
// (Eigen has no simd128 kernels there and runs them lane by lane); otherwise Eigen's.

// a: (n, k), b: (k, m) -> (n, m) a b
template <typename T>
MatrixT<T> times(const MatrixT<T>& a, const MatrixT<T>& b) {
  MatrixT<T> c(a.rows(), b.cols());
#ifdef __wasm_simd128__
  if constexpr (std::is_same_v<T, float>) {
    simd::matmul(a.data(), static_cast<int>(a.rows()), static_cast<int>(a.cols()), b.data(),
                 static_cast<int>(b.cols()), c.data());
    return c;
  }
#endif
  c.noalias() = a * b;
  return c;
}

// a: (n, k), b: (m, k) -> (n, m) a b^T
template <typename T>
MatrixT<T> times_transposed(const MatrixT<T>& a, const MatrixT<T>& b) {
  MatrixT<T> c(a.rows(), b.rows());
#ifdef __wasm_simd128__
  if constexpr (std::is_same_v<T, float>) {
    simd::matmul_transposed(a.data(), static_cast<int>(a.rows()), static_cast<int>(a.cols()),
                            b.data(), static_cast<int>(b.rows()), c.data());
    return c;
  }
#endif
  c.noalias() = a * b.transpose();
  return c;
}

// a: (n, k), b: (n, m), c: (k, m) -> c += a^T b
template <typename T>
void add_transposed_times(MatrixT<T>& c, const MatrixT<T>& a, const MatrixT<T>& b) {
#ifdef __wasm_simd128__
  if constexpr (std::is_same_v<T, float>) {
    const MatrixT<T> at = a.transpose();  // (k, n), row-major
    c += times(at, b);
    return;
  }
#endif
  c.noalias() += a.transpose() * b;
}

// The products of the layers of layers.hpp: summed in one fixed order in every build.
struct OrderedProducts {
  template <typename T>
  static MatrixT<T> times(const MatrixT<T>& a, const MatrixT<T>& b) {
    return product(a, b);
  }
  template <typename T>
  static MatrixT<T> times_transposed(const MatrixT<T>& a, const MatrixT<T>& b) {
    return product_transposed(a, b);
  }
  template <typename T>
  static void add_transposed_times(MatrixT<T>& c, const MatrixT<T>& a, const MatrixT<T>& b) {
    add_transposed_product(c, a, b);
  }
  template <typename T>
  static void add_column_sums(MatrixT<T>& sums, const MatrixT<T>& a) {
    detail::add_column_sums(sums, a);
  }
};

// The language model's products, above.
struct DenseProducts {
  template <typename T>
  static MatrixT<T> times(const MatrixT<T>& a, const MatrixT<T>& b) {
    return detail::times(a, b);
  }
  template <typename T>
  static MatrixT<T> times_transposed(const MatrixT<T>& a, const MatrixT<T>& b) {
    return detail::times_transposed(a, b);
  }
  template <typename T>
  static void add_transposed_times(MatrixT<T>& c, const MatrixT<T>& a, const MatrixT<T>& b) {
    detail::add_transposed_times(c, a, b);
  }
  template <typename T>
  static void add_column_sums(MatrixT<T>& sums, const MatrixT<T>& a) {
    sums += a.colwise().sum();
  }
};

// x: (n, d_in), w: (d_in, d_out), b: (1, d_out) or null -> y: (n, d_out) = x W + b.
template <typename Products, typename T>
LinearPass<T> linear_layer_forward(MatrixT<T> x, const Parameter<T>& w, const Parameter<T>* b) {
  if (x.cols() != w.value.rows()) {
    fail("linear forward", "x is " + shape_of(x.rows(), x.cols()) + " and " + w.name + " is " +
                               shape_of(w.value.rows(), w.value.cols()) +
                               ": x needs as many columns as the weight has rows");
  }
  if (b && (b->value.rows() != 1 || b->value.cols() != w.value.cols())) {
    fail("linear forward", b->name + " is " + shape_of(b->value.rows(), b->value.cols()) +
                               " but must be " + shape_of(1, w.value.cols()));
  }
  LinearPass<T> pass;
  pass.y = Products::times(x, w.value);
  if (b) pass.y.rowwise() += b->value.row(0);
  pass.x = std::move(x);
  return pass;
}

// dy: (n, d_out) -> dx: (n, d_in) = dy W^T; adds dL/dW = x^T dy (every row's outer product
// x_i^T dy_i, summed over rows) into w.grad, and dL/db = the column sums of dy (b is added to
// every row) into b->grad.
template <typename Products, typename T>
MatrixT<T> linear_layer_backward(const LinearPass<T>& pass, const MatrixT<T>& dy, Parameter<T>& w,
                                 Parameter<T>* b) {
  if (dy.rows() != pass.y.rows() || dy.cols() != pass.y.cols()) {
    fail("linear backward", "dy is " + shape_of(dy.rows(), dy.cols()) + " but must be " +
                                shape_of(pass.y.rows(), pass.y.cols()));
  }
  Products::add_transposed_times(w.grad, pass.x, dy);
  if (b) Products::add_column_sums(b->grad, dy);
  return Products::times_transposed(dy, w.value);
}

template <typename T>
LinearPass<T> dense_linear_forward(MatrixT<T> x, const Parameter<T>& w, const Parameter<T>* b) {
  return linear_layer_forward<DenseProducts>(std::move(x), w, b);
}

template <typename T>
MatrixT<T> dense_linear_backward(const LinearPass<T>& pass, const MatrixT<T>& dy, Parameter<T>& w,
                                 Parameter<T>* b) {
  return linear_layer_backward<DenseProducts>(pass, dy, w, b);
}

}  // namespace attn::detail

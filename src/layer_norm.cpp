#include "attn/layer_norm.hpp"

#include <cmath>

#include "checks.hpp"

namespace attn {
namespace {

template <typename T>
void require_row(const char* where, const Parameter<T>& p, Eigen::Index d) {
  if (p.value.rows() != 1 || p.value.cols() != d) {
    detail::fail(where, p.name + " is " + shape_of(p.value.rows(), p.value.cols()) +
                            " but must be " + shape_of(1, d));
  }
}

}  // namespace

template <typename T>
LayerNormWeights<T> layer_norm_weights(int d, const std::string& prefix) {
  LayerNormWeights<T> w{Parameter<T>({}, MatrixT<T>::Ones(1, d)),
                        Parameter<T>({}, MatrixT<T>::Zero(1, d))};
  w.name(prefix);
  return w;
}

// x: (n, d) -> y: (n, d)
template <typename T>
LayerNormPass<T> layer_norm_forward(const MatrixT<T>& x, const LayerNormWeights<T>& weights) {
  constexpr const char* kWhere = "layer norm forward";
  const Eigen::Index n = x.rows(), d = x.cols();
  detail::require_non_empty(kWhere, "x", x);
  require_row(kWhere, weights.gain, d);
  require_row(kWhere, weights.bias, d);
  LayerNormPass<T> pass;
  pass.normalised.resize(n, d);
  pass.inv_std.resize(n, 1);
  const T eps = static_cast<T>(kLayerNormEpsilon);
  for (Eigen::Index r = 0; r < n; ++r) {
    // 1. The mean, and the variance about it in a second pass: subtracting the mean first keeps
    //    the variance accurate when the row sits far from 0 (a one-pass E[x^2] - E[x]^2 cancels).
    const auto row = x.row(r).array();
    const T mean = row.sum() / static_cast<T>(d);
    const T var = (row - mean).square().sum() / static_cast<T>(d);
    // 2. eps inside the root keeps a constant row (variance 0) finite, as in PyTorch.
    const T inv = T(1) / std::sqrt(var + eps);
    pass.inv_std(r, 0) = inv;
    pass.normalised.row(r) = ((row - mean) * inv).matrix();
  }
  // 3. The learned affine map, per column.
  pass.y = (pass.normalised.array().rowwise() * weights.gain.value.row(0).array()).matrix();
  pass.y.rowwise() += weights.bias.value.row(0);
  return pass;
}

// dy: (n, d) -> dx: (n, d)
template <typename T>
MatrixT<T> layer_norm_backward(const LayerNormPass<T>& pass, const MatrixT<T>& dy,
                               LayerNormWeights<T>& weights) {
  const Eigen::Index n = pass.y.rows(), d = pass.y.cols();
  if (dy.rows() != n || dy.cols() != d) {
    detail::fail("layer norm backward",
                 "dy is " + shape_of(dy.rows(), dy.cols()) + " but must be " + shape_of(n, d));
  }
  // 1. y = xhat * g + b: dL/dg = sum over rows of dy * xhat, dL/db = sum over rows of dy.
  weights.gain.grad += (dy.array() * pass.normalised.array()).colwise().sum().matrix();
  weights.bias.grad += dy.colwise().sum();
  // 2. dL/dxhat = dy * g.
  const MatrixT<T> d_norm = (dy.array().rowwise() * weights.gain.value.row(0).array()).matrix();
  // 3. xhat = (x - mu) s with s = 1 / sqrt(var + eps): mu and var depend on every entry of the
  //    row, which gives dx = s (dxhat - mean(dxhat) - xhat mean(dxhat * xhat)).
  MatrixT<T> dx(n, d);
  for (Eigen::Index r = 0; r < n; ++r) {
    const auto g = d_norm.row(r).array();
    const auto xhat = pass.normalised.row(r).array();
    const T mean_g = g.sum() / static_cast<T>(d);
    const T mean_gx = (g * xhat).sum() / static_cast<T>(d);
    dx.row(r) = ((g - mean_g - xhat * mean_gx) * pass.inv_std(r, 0)).matrix();
  }
  return dx;
}

#define ATTN_INSTANTIATE_LAYER_NORM(T)                                                         \
  template LayerNormWeights<T> layer_norm_weights(int, const std::string&);                    \
  template LayerNormPass<T> layer_norm_forward(const MatrixT<T>&, const LayerNormWeights<T>&); \
  template MatrixT<T> layer_norm_backward(const LayerNormPass<T>&, const MatrixT<T>&,          \
                                          LayerNormWeights<T>&);

ATTN_INSTANTIATE_LAYER_NORM(float)
ATTN_INSTANTIATE_LAYER_NORM(double)

}  // namespace attn

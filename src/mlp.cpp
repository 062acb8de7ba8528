#include "attn/mlp.hpp"

#include <cmath>
#include <type_traits>
#include <utility>

#include "attn/random.hpp"
#include "checks.hpp"
#include "dense_linear.hpp"
#include "ordered_math.hpp"
#include "simd.hpp"

namespace attn {
namespace {

constexpr double kSqrt2OverPi = 0.7978845608028654;  // sqrt(2 / pi)
constexpr double kCubic = 0.044715;

}  // namespace

// x: (n, d) -> y: (n, d)
template <typename T>
GeluPass<T> gelu_forward(const MatrixT<T>& x) {
  const T c = static_cast<T>(kSqrt2OverPi), a = static_cast<T>(kCubic);
  GeluPass<T> pass;
  pass.x = x;
  pass.t.resize(x.rows(), x.cols());
  pass.y.resize(x.rows(), x.cols());
  Eigen::Index i = 0;
  if constexpr (std::is_same_v<T, float>) {
    // Four at a time: the same operations as the loop below, so the same bits (simd.hpp).
    using simd::splat;
    for (; i + 4 <= x.size(); i += 4) {
      const simd::f32x4 v = simd::load(x.data() + i);
      const simd::f32x4 t = simd::portable_tanh(splat(c) * (v + splat(a) * v * v * v));
      simd::store(pass.t.data() + i, t);
      simd::store(pass.y.data() + i, splat(0.5f) * v * (splat(1.0f) + t));
    }
  }
  for (; i < x.size(); ++i) {
    const T v = x.data()[i];
    const T t = detail::tanh_of(c * (v + a * v * v * v));
    pass.t.data()[i] = t;
    pass.y.data()[i] = T(0.5) * v * (T(1) + t);
  }
  return pass;
}

// dy: (n, d) -> dx: (n, d)
template <typename T>
MatrixT<T> gelu_backward(const GeluPass<T>& pass, const MatrixT<T>& dy) {
  if (dy.rows() != pass.y.rows() || dy.cols() != pass.y.cols()) {
    detail::fail("gelu backward", "dy is " + shape_of(dy.rows(), dy.cols()) + " but must be " +
                                      shape_of(pass.y.rows(), pass.y.cols()));
  }
  const T c = static_cast<T>(kSqrt2OverPi), a3 = static_cast<T>(3 * kCubic);
  MatrixT<T> dx(dy.rows(), dy.cols());
  for (Eigen::Index i = 0; i < dy.size(); ++i) {
    // y = x/2 (1 + t), t = tanh(u), u = c (x + a x^3):
    // dy/dx = (1 + t)/2 + x/2 (1 - t^2) c (1 + 3 a x^2).
    const T v = pass.x.data()[i], t = pass.t.data()[i];
    const T slope = T(0.5) * (T(1) + t) + T(0.5) * v * (T(1) - t * t) * c * (T(1) + a3 * v * v);
    dx.data()[i] = dy.data()[i] * slope;
  }
  return dx;
}

template <typename T>
MlpWeights<T> mlp_weights(int d, int d_mlp, std::uint64_t seed, double output_scale,
                          const std::string& prefix) {
  if (d < 1 || d_mlp < 1) {
    detail::fail("mlp weights", "widths must be positive, got d = " + std::to_string(d) +
                                    " and d_mlp = " + std::to_string(d_mlp));
  }
  MlpWeights<T> w;
  w.w1 = Parameter<T>({}, detail::fan_in_uniform<T>(d, d_mlp, derive_seed(seed, 1)));
  w.b1 = Parameter<T>({}, MatrixT<T>::Zero(1, d_mlp));
  w.w2 = Parameter<T>({}, detail::fan_in_uniform<T>(d_mlp, d, derive_seed(seed, 2), output_scale));
  w.b2 = Parameter<T>({}, MatrixT<T>::Zero(1, d));
  w.name(prefix);
  return w;
}

// x: (n, d) -> y: (n, d)
template <typename T>
MlpPass<T> mlp_forward(MatrixT<T> x, const MlpWeights<T>& weights) {
  MlpPass<T> pass;
  // 1. Widen: (n, d) -> (n, d_mlp).
  pass.hidden = detail::dense_linear_forward(std::move(x), weights.w1, &weights.b1);
  // 2. The nonlinearity, elementwise.
  pass.active = gelu_forward(pass.hidden.y);
  // 3. Back to the width of the residual stream: (n, d_mlp) -> (n, d).
  pass.output = detail::dense_linear_forward(pass.active.y, weights.w2, &weights.b2);
  return pass;
}

// dy: (n, d) -> dx: (n, d)
template <typename T>
MatrixT<T> mlp_backward(const MlpPass<T>& pass, const MatrixT<T>& dy, MlpWeights<T>& weights) {
  const MatrixT<T> d_active =
      detail::dense_linear_backward(pass.output, dy, weights.w2, &weights.b2);
  const MatrixT<T> d_hidden = gelu_backward(pass.active, d_active);
  return detail::dense_linear_backward(pass.hidden, d_hidden, weights.w1, &weights.b1);
}

#define ATTN_INSTANTIATE_MLP(T)                                                            \
  template GeluPass<T> gelu_forward(const MatrixT<T>&);                                    \
  template MatrixT<T> gelu_backward(const GeluPass<T>&, const MatrixT<T>&);                \
  template MlpWeights<T> mlp_weights(int, int, std::uint64_t, double, const std::string&); \
  template MlpPass<T> mlp_forward(MatrixT<T>, const MlpWeights<T>&);                       \
  template MatrixT<T> mlp_backward(const MlpPass<T>&, const MatrixT<T>&, MlpWeights<T>&);

ATTN_INSTANTIATE_MLP(float)
ATTN_INSTANTIATE_MLP(double)

}  // namespace attn

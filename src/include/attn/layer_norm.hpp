// Layer normalisation with a learned gain and bias, forward and backward. A template on the scalar
// (float and double, instantiated in layer_norm.cpp); conventions as in layers.hpp.
//
// For each row x of width d: y = (x - mean(x)) / sqrt(var(x) + eps) * gain + bias, where var is
// the biased variance (divided by d, not d - 1) and eps = 1e-5, as PyTorch's nn.LayerNorm.
#pragma once

#include "attn/layers.hpp"

namespace attn {

// PyTorch's default epsilon for nn.LayerNorm.
constexpr double kLayerNormEpsilon = 1e-5;

// The two parameters of one layer norm, both (1, d): gain starts at 1 and bias at 0.
template <typename T>
struct LayerNormWeights {
  Parameter<T> gain, bias;

  // Names both "<prefix>.gain" and "<prefix>.bias".
  void name(const std::string& prefix) {
    gain.name = prefix + ".gain";
    bias.name = prefix + ".bias";
  }
};

// -> gain of ones and bias of zeros, named "<prefix>.gain" and "<prefix>.bias".
template <typename T>
LayerNormWeights<T> layer_norm_weights(int d, const std::string& prefix);

template <typename T>
struct LayerNormPass {
  MatrixT<T> normalised;  // (n, d) (x - mean) / sqrt(var + eps), before gain and bias
  MatrixT<T> inv_std;     // (n, 1) 1 / sqrt(var + eps) of each row
  MatrixT<T> y;           // (n, d)
};

// x: (n, d), gain and bias: (1, d) -> y: (n, d). Throws InvalidArgument on shapes that do not fit.
template <typename T>
LayerNormPass<T> layer_norm_forward(const MatrixT<T>& x, const LayerNormWeights<T>& weights);

// dy: (n, d) -> dx: (n, d); adds sum_rows(dy * normalised) into gain.grad and sum_rows(dy) into
// bias.grad.
template <typename T>
MatrixT<T> layer_norm_backward(const LayerNormPass<T>& pass, const MatrixT<T>& dy,
                               LayerNormWeights<T>& weights);

}  // namespace attn

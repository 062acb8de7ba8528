// GELU and the transformer's position-wise MLP (linear, GELU, linear), forward and backward.
// Templates on the scalar (float and double, instantiated in mlp.cpp); conventions as in
// layers.hpp.
//
// GELU is the tanh approximation, gelu(x) = x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), as
// GPT-2 and PyTorch's nn.GELU(approximate="tanh"). Why GELU and not ReLU: it is smooth, so the
// central-difference checks hold everywhere (ReLU's kink at 0 breaks them for inputs near it), and
// it is what the reference models use. Why the tanh form and not the exact erf: it reuses the
// core's tanh, and the two differ by less than 5e-4 anywhere.
#pragma once

#include <cstdint>
#include <string>

#include "attn/layers.hpp"

namespace attn {

template <typename T>
struct GeluPass {
  MatrixT<T> x;  // (n, d) the input
  MatrixT<T> t;  // (n, d) tanh(sqrt(2/pi) (x + 0.044715 x^3)), for the backward pass
  MatrixT<T> y;  // (n, d)
};

// x: (n, d) -> y: (n, d), elementwise.
template <typename T>
GeluPass<T> gelu_forward(const MatrixT<T>& x);

// dy: (n, d) -> dx: (n, d) = dy * gelu'(x).
template <typename T>
MatrixT<T> gelu_backward(const GeluPass<T>& pass, const MatrixT<T>& dy);

// y = gelu(x W_1 + b_1) W_2 + b_2, widths d -> d_mlp -> d.
template <typename T>
struct MlpWeights {
  Parameter<T> w1, b1;  // (d, d_mlp), (1, d_mlp)
  Parameter<T> w2, b2;  // (d_mlp, d), (1, d)

  // Names them "<prefix>.W_1", "<prefix>.b_1", "<prefix>.W_2" and "<prefix>.b_2".
  void name(const std::string& prefix) {
    w1.name = prefix + ".W_1";
    b1.name = prefix + ".b_1";
    w2.name = prefix + ".W_2";
    b2.name = prefix + ".b_2";
  }
};

// Seeded weights named "<prefix>.W_1" etc.: each W uniform with variance 1 / fan_in, W_2 further
// times output_scale (the language model shrinks what each block adds to the residual stream);
// biases 0.
template <typename T>
MlpWeights<T> mlp_weights(int d, int d_mlp, std::uint64_t seed, double output_scale,
                          const std::string& prefix);

template <typename T>
struct MlpPass {
  LinearPass<T> hidden;  // (n, d_mlp) x W_1 + b_1
  GeluPass<T> active;    // (n, d_mlp) gelu of it
  LinearPass<T> output;  // (n, d) y
};

// x: (n, d) -> y: (n, d). Throws InvalidArgument on shapes that do not fit.
template <typename T>
MlpPass<T> mlp_forward(MatrixT<T> x, const MlpWeights<T>& weights);

// dy: (n, d) -> dx: (n, d); adds every weight's gradient into its grad.
template <typename T>
MatrixT<T> mlp_backward(const MlpPass<T>& pass, const MatrixT<T>& dy, MlpWeights<T>& weights);

}  // namespace attn

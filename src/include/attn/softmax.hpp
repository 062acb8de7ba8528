// The row softmax, forward and backward: what the page's softmax figure and reference attention
// show, and what the trainable attention (attention_grad.hpp) and the loss build on. The
// exponentials are ordered_math.hpp's portable ones, so every build gives the same bits.
#pragma once

#include "attn/matrix.hpp"

namespace attn {

// x: (rows, cols) -> (rows, cols), each row a distribution: w_ij = exp(x_ij) / sum_k exp(x_ik).
// Entries of -inf are masked and get a weight of exactly 0. Throws InvalidArgument on a row with
// no finite entry. Templates on the scalar (float and double, instantiated in softmax.cpp).
template <typename T>
MatrixT<T> softmax_rows_forward(const MatrixT<T>& x);

// weights: (rows, cols), the forward's output; d_weights: (rows, cols) -> d_x: (rows, cols),
// d_x_ij = w_ij (dw_ij - sum_k w_ik dw_ik). A masked entry (weight 0) gets exactly 0.
template <typename T>
MatrixT<T> softmax_rows_backward(const MatrixT<T>& weights, const MatrixT<T>& d_weights);

// The forward with a temperature and every input checked, for the page:
// x: (rows, cols) -> (rows, cols), weights_ij = exp(x_ij / T) / sum_k exp(x_ik / T), T > 0.
// A row whose entries are all -inf has no entry to put weight on and throws InvalidArgument, as
// do NaN, +inf and a temperature <= 0.
Matrix softmax_rows(const Matrix& x, float temperature = 1.0f);

}  // namespace attn

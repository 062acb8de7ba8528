// Row-wise softmax.
#pragma once

#include "attn/matrix.hpp"

namespace attn {

// x: (rows, cols) -> (rows, cols), each row a probability distribution.
// weights_ij = exp(x_ij / T) / sum_k exp(x_ik / T), with T = temperature > 0.
// An entry of -inf is masked: its weight is exactly 0. A row whose entries are all -inf has no
// entry to put weight on and throws InvalidArgument, as do NaN, +inf and a temperature <= 0.
Matrix softmax_rows(const Matrix& x, float temperature = 1.0f);

}  // namespace attn

// Sinusoidal positional encoding.
#pragma once

#include "attn/matrix.hpp"

namespace attn {

// -> (n, d): PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(pos / 10000^(2i/d)).
// Throws InvalidArgument unless n, d >= 1 and n x d is at most 2^26 values.
Matrix positional_encoding(int n, int d);

}  // namespace attn

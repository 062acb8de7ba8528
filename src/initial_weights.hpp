// The initial weights of every trained model in the core, drawn from the project's seeded
// generator (attn/random.hpp), so that a seed gives the same numbers in every build. Private to
// src/.
#pragma once

#include <cmath>
#include <cstdint>

#include "attn/matrix.hpp"
#include "attn/random.hpp"

namespace attn::detail {

// -> (rows, cols) for a (fan_in, fan_out) weight used as X W: uniform in +-sqrt(3 / fan_in)
// (variance 1 / fan_in, so that an output keeps the scale of its input whatever the widths), times
// scale. The glorot draw of the portable generator, rescaled in float first, so that float and
// double models start from the same numbers.
template <typename T>
MatrixT<T> fan_in_uniform(int rows, int cols, std::uint64_t seed, double scale = 1.0) {
  const double glorot_limit = std::sqrt(6.0 / (rows + cols));
  const auto rescale = static_cast<float>(scale * std::sqrt(3.0 / rows) / glorot_limit);
  const Matrix w = glorot_uniform(rows, cols, seed) * rescale;
  return w.template cast<T>();
}

// -> (rows, cols) uniform in +-limit, rounded to float first, so that float and double models
// start from the same numbers.
template <typename T>
MatrixT<T> uniform_weight(int rows, int cols, double limit, std::uint64_t seed) {
  return uniform_matrix(rows, cols, limit, seed).template cast<T>();
}

}  // namespace attn::detail

// Shared by the unit tests: seeded inputs and a NaN-aware comparison.
#pragma once

#include <cstdint>

#include "attn/matrix.hpp"
#include "attn/random.hpp"

namespace test {

// (rows, cols) of unit-normal values for a seed.
inline attn::Matrix random(int rows, int cols, std::uint64_t seed) {
  return attn::unit_normal(rows, cols, seed);
}

// Largest |a - b| over entries, treating equal infinities as equal.
inline float max_difference(const attn::Matrix& a, const attn::Matrix& b) {
  float worst = 0;
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    const float x = a.data()[i], y = b.data()[i];
    if (x == y) continue;
    const float d = std::abs(x - y);
    worst = d > worst || d != d ? d : worst;
  }
  return worst;
}

}  // namespace test

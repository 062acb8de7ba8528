// The bound on results made from sizes alone (positional encoding, the seeded generators). Private
// to src/.
#pragma once

#include <string>

#include "checks.hpp"

namespace attn::detail {

// The most values such a matrix may hold (2^26 floats, 256 MB): beyond it the call is refused
// with InvalidArgument rather than left to fail on memory.
inline constexpr long long kMaxValues = 1LL << 26;

// Throws when rows x cols (both already >= 1) is more than kMaxValues values.
inline void require_at_most_max_values(const char* where, int rows, int cols) {
  if (static_cast<long long>(rows) * cols > kMaxValues) {
    fail(where, shape_of(rows, cols) + " is more than the " + std::to_string(kMaxValues) +
                    " values one result may hold");
  }
}

}  // namespace attn::detail

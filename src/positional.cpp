#include "attn/positional.hpp"

#include <cmath>

#include "sizes.hpp"

namespace attn {

// -> (n, d)
Matrix positional_encoding(int n, int d) {
  if (n < 1 || d < 1) {
    detail::fail("positional encoding", "n and d must be at least 1, got n=" + std::to_string(n) +
                                            ", d=" + std::to_string(d));
  }
  detail::require_at_most_max_values("positional encoding", n, d);
  Matrix pe(n, d);
  for (int pos = 0; pos < n; ++pos) {
    for (int i = 0; 2 * i < d; ++i) {
      // Each pair of columns is one frequency; wavelengths grow geometrically from 2 pi to
      // 10000 * 2 pi, so nearby positions differ in the fast columns, distant ones in the slow.
      const double angle = pos / std::pow(10000.0, 2.0 * i / d);
      pe(pos, 2 * i) = static_cast<float>(std::sin(angle));
      if (2 * i + 1 < d) pe(pos, 2 * i + 1) = static_cast<float>(std::cos(angle));
    }
  }
  return pe;
}

}  // namespace attn

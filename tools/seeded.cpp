// Prints seeded numbers as IEEE-754 bit patterns, one float32 a line in 8 hex digits, so that
// tests can check that the wasm build produces exactly the same bits as the native one.
// Usage: attn_seeded glorot|normal ROWS COLS SEED
//        attn_seeded bottleneck WIDTH CODEBOOK SEED
// (bottleneck: the experiment's default counts N = 1, 2, 4, ... 256 and trials; the fixed
// vector's accuracy at each N, then attention's)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "attn/bottleneck.hpp"
#include "attn/random.hpp"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s glorot|normal ROWS COLS SEED\n", argv[0]);
    std::fprintf(stderr, "       %s bottleneck WIDTH CODEBOOK SEED\n", argv[0]);
    return 2;
  }
  const std::string kind = argv[1];
  const int rows = std::atoi(argv[2]), cols = std::atoi(argv[3]);
  const auto seed = static_cast<std::uint64_t>(std::strtoull(argv[4], nullptr, 10));
  try {
    attn::Matrix m;
    if (kind == "glorot") {
      m = attn::glorot_uniform(rows, cols, seed);
    } else if (kind == "normal") {
      m = attn::unit_normal(rows, cols, seed);
    } else if (kind == "bottleneck") {
      attn::BottleneckOptions options;  // the default counts and trials
      options.width = rows;
      options.codebook = cols;
      options.seed = seed;
      const attn::BottleneckResult result = attn::bottleneck_experiment(options);
      const auto count = static_cast<Eigen::Index>(result.counts.size());
      m.resize(2, count);
      for (Eigen::Index i = 0; i < count; ++i) {
        m(0, i) = static_cast<float>(result.fixed_vector[i]);
        m(1, i) = static_cast<float>(result.attention[i]);
      }
    } else {
      std::fprintf(stderr, "unknown kind '%s': use glorot, normal or bottleneck\n", kind.c_str());
      return 2;
    }
    for (Eigen::Index i = 0; i < m.size(); ++i) {
      std::uint32_t bits;
      std::memcpy(&bits, m.data() + i, sizeof bits);
      std::printf("%08x\n", bits);
    }
  } catch (const attn::InvalidArgument& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 1;
  }
  return 0;
}

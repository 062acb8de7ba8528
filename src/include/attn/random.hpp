// The project's own seeded random numbers: the same seed gives bit-identical numbers in every
// build (native and wasm), which standard library distributions do not promise.
#pragma once

#include <cstdint>

#include "attn/matrix.hpp"

namespace attn {

// xoshiro128** seeded through splitmix64. Only integer arithmetic.
class Rng {
 public:
  explicit Rng(std::uint64_t seed);
  std::uint32_t next_u32();
  double uniform();      // [0, 1), 53 random bits
  double unit_normal();  // mean 0, variance 1 (Marsaglia's polar method, own log)

 private:
  std::uint32_t state_[4];
  bool has_spare_ = false;
  double spare_ = 0.0;
};

// splitmix64's finaliser: mixes the 64 bits of z so that each input bit flips about half the
// output bits. The generator below is seeded through it, and so is every derived seed.
std::uint64_t mix64(std::uint64_t z);

// A seed derived from `seed` and a small tag, for independent streams: training batches, the
// held-out set of each length, the initial weights of each parameter, the facts of each count.
// mix64(seed ^ ((tag + 1) * 0x9E3779B97F4A7C15)).
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t tag);

// -> (rows, cols) uniform in [-limit, limit], drawn in double in storage order, rounded to float.
Matrix uniform_matrix(int rows, int cols, double limit, std::uint64_t seed);

// -> (rows, cols) uniform in [-a, a] with a = sqrt(6 / (rows + cols)), for a (fan_in, fan_out)
// weight matrix used as X · W.
Matrix glorot_uniform(int rows, int cols, std::uint64_t seed);

// -> (rows, cols) of independent unit-normal samples.
// The generators throw InvalidArgument unless rows, cols >= 1 and rows x cols is at most 2^26.
Matrix unit_normal(int rows, int cols, std::uint64_t seed);

// Natural logarithm from + - * / only, so it rounds the same everywhere. x > 0.
double portable_log(double x);

}  // namespace attn

#include "attn/random.hpp"

#include <cmath>
#include <cstring>

#include "sizes.hpp"

namespace attn {
namespace {

constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ull;  // 2^64 / the golden ratio

std::uint64_t splitmix64(std::uint64_t& state) { return mix64(state += kGolden); }

std::uint32_t rotl(std::uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }

void check_size(const char* where, int rows, int cols) {
  if (rows < 1 || cols < 1) {
    detail::fail(where, "rows and cols must be at least 1, got " + shape_of(rows, cols));
  }
  detail::require_at_most_max_values(where, rows, cols);
}

}  // namespace

std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t tag) {
  return mix64(seed ^ ((tag + 1) * kGolden));
}

Rng::Rng(std::uint64_t seed) {
  std::uint64_t s = seed;
  const std::uint64_t a = splitmix64(s), b = splitmix64(s);
  state_[0] = static_cast<std::uint32_t>(a);
  state_[1] = static_cast<std::uint32_t>(a >> 32);
  state_[2] = static_cast<std::uint32_t>(b);
  state_[3] = static_cast<std::uint32_t>(b >> 32);
}

std::uint32_t Rng::next_u32() {  // xoshiro128**
  const std::uint32_t result = rotl(state_[1] * 5, 7) * 9;
  const std::uint32_t t = state_[1] << 9;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotl(state_[3], 11);
  return result;
}

double Rng::uniform() {
  const std::uint64_t high = next_u32() >> 5;  // 27 bits
  const std::uint64_t low = next_u32() >> 6;   // 26 bits
  return static_cast<double>((high << 26) | low) * 0x1.0p-53;
}

double Rng::unit_normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  // Marsaglia's polar method: a uniform point in the unit disc gives two independent normals.
  double u, v, s;
  do {
    u = 2.0 * uniform() - 1.0;
    v = 2.0 * uniform() - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  const double factor = std::sqrt(-2.0 * portable_log(s) / s);  // sqrt rounds exactly everywhere
  spare_ = v * factor;
  has_spare_ = true;
  return u * factor;
}

double portable_log(double x) {
  // 1. x = m 2^e with m in [sqrt(1/2), sqrt(2)), read off the IEEE-754 bits.
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  int e = static_cast<int>((bits >> 52) & 0x7FF) - 1023;
  bits = (bits & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull;
  double m;
  std::memcpy(&m, &bits, sizeof m);
  if (m > 1.4142135623730951) {
    m *= 0.5;
    ++e;
  }
  // 2. log m = 2 atanh(f) = 2 (f + f^3/3 + f^5/5 + ...) with f = (m - 1) / (m + 1), |f| < 0.172;
  //    terms up to f^23 leave an error below 1e-17.
  const double f = (m - 1.0) / (m + 1.0);
  const double f2 = f * f;
  double series = 1.0 / 23;
  for (int k = 21; k >= 1; k -= 2) series = series * f2 + 1.0 / k;
  return e * 0.69314718055994530942 + 2.0 * f * series;
}

// -> (rows, cols)
Matrix uniform_matrix(int rows, int cols, double limit, std::uint64_t seed) {
  check_size("uniform matrix", rows, cols);
  Rng rng(seed);
  Matrix w(rows, cols);
  for (Eigen::Index i = 0; i < w.size(); ++i) {
    w.data()[i] = static_cast<float>((2.0 * rng.uniform() - 1.0) * limit);
  }
  return w;
}

// -> (rows, cols)
Matrix glorot_uniform(int rows, int cols, std::uint64_t seed) {
  check_size("glorot uniform", rows, cols);
  return uniform_matrix(rows, cols, std::sqrt(6.0 / (rows + cols)), seed);
}

// -> (rows, cols)
Matrix unit_normal(int rows, int cols, std::uint64_t seed) {
  check_size("unit normal", rows, cols);
  Rng rng(seed);
  Matrix x(rows, cols);
  for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = static_cast<float>(rng.unit_normal());
  return x;
}

}  // namespace attn

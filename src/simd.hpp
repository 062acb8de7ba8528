// Float vectors of four lanes and of the target's full width, written once with the compiler's
// vector extensions: clang lowers them to wasm simd128 (with -msimd128), gcc and clang to
// SSE/AVX natively. Private to src/.
#pragma once

#include <cstdint>
#include <cstring>

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace attn::simd {

typedef float f32x4 __attribute__((vector_size(16)));
typedef std::int32_t i32x4 __attribute__((vector_size(16)));
typedef std::uint32_t u32x4 __attribute__((vector_size(16)));

// The widest float vector the target has: 16 lanes with AVX-512, 8 with AVX, 4 otherwise (SSE,
// wasm simd128). Code that gives the same bits at any width (lane-wise operations, sums in a fixed
// order) uses it natively at full width.
#if defined(__AVX512F__)
#define ATTN_WIDE_LANES 16
#elif defined(__AVX__)
#define ATTN_WIDE_LANES 8
#else
#define ATTN_WIDE_LANES 4
#endif
typedef float f32xw __attribute__((vector_size(4 * ATTN_WIDE_LANES)));

// A vector of V's shape (four lanes unless named) read from, or written to, p: any alignment.
template <typename V = f32x4>
inline V load(const float* p) {
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename V>
inline void store(float* p, V v) {
  std::memcpy(p, &v, sizeof v);
}

// A vector of V's shape (four lanes unless named) with every lane x: one broadcast, as x - 0 is x
// for every float, -0 included.
template <typename V = f32x4>
inline V splat(float x) {
  return x - V{};
}

inline float sum(f32x4 v) { return (v[0] + v[1]) + (v[2] + v[3]); }

// True when none of the n values is NaN or infinite: x - x is 0 for every finite x and NaN
// otherwise, and NaN survives the sum. Four sums, so that their additions overlap.
inline bool all_finite(const float* values, long n) {
  f32x4 acc0{}, acc1{}, acc2{}, acc3{};
  long i = 0;
  for (; i + 16 <= n; i += 16) {
    const f32x4 x0 = load(values + i), x1 = load(values + i + 4);
    const f32x4 x2 = load(values + i + 8), x3 = load(values + i + 12);
    acc0 += x0 - x0;
    acc1 += x1 - x1;
    acc2 += x2 - x2;
    acc3 += x3 - x3;
  }
  for (; i + 4 <= n; i += 4) {
    const f32x4 x = load(values + i);
    acc0 += x - x;
  }
  float rest = 0;
  for (; i < n; ++i) rest += values[i] - values[i];
  return sum((acc0 + acc1) + (acc2 + acc3)) + rest == 0.0f;
}

// dst: (cols, rows) = src: (rows, cols)^T, in blocks of 4 x 4 moved with vector shuffles.
inline void transpose(const float* src, int rows, int cols, float* dst) {
  int r = 0;
  for (; r + 4 <= rows; r += 4) {
    int c = 0;
    for (; c + 4 <= cols; c += 4) {
      const float* s = src + r * cols + c;
      const f32x4 s0 = load(s), s1 = load(s + cols);
      const f32x4 s2 = load(s + 2 * cols), s3 = load(s + 3 * cols);
      // Interleave pairs of rows, then pairs of pairs: column t of the block becomes lane row t.
      const f32x4 low01 = __builtin_shufflevector(s0, s1, 0, 4, 1, 5);
      const f32x4 high01 = __builtin_shufflevector(s0, s1, 2, 6, 3, 7);
      const f32x4 low23 = __builtin_shufflevector(s2, s3, 0, 4, 1, 5);
      const f32x4 high23 = __builtin_shufflevector(s2, s3, 2, 6, 3, 7);
      float* d = dst + c * rows + r;
      store(d, __builtin_shufflevector(low01, low23, 0, 1, 4, 5));
      store(d + rows, __builtin_shufflevector(low01, low23, 2, 3, 6, 7));
      store(d + 2 * rows, __builtin_shufflevector(high01, high23, 0, 1, 4, 5));
      store(d + 3 * rows, __builtin_shufflevector(high01, high23, 2, 3, 6, 7));
    }
    for (; c < cols; ++c) {
      for (int t = 0; t < 4; ++t) dst[c * rows + r + t] = src[(r + t) * cols + c];
    }
  }
  for (; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) dst[c * rows + r] = src[r * cols + c];
  }
}

// The largest of V's lanes (of non-NaN values).
template <typename V>
inline float max_lane(V v) {
  float top = v[0];
  for (unsigned i = 1; i < sizeof(V) / sizeof(float); ++i) top = v[i] > top ? v[i] : top;
  return top;
}

// Lane-wise maximum (of non-NaN values), at any width.
template <typename V>
inline V max_lanes(V a, V b) {
#ifdef __wasm_simd128__
  if constexpr (sizeof(V) == sizeof(v128_t)) {
    return (V)wasm_f32x4_pmax((v128_t)a, (v128_t)b);  // one instruction: b < a ? a : b
  }
#endif
  using I = decltype(V{} > V{});
  const I a_wins = a > b;
  return (V)((a_wins & (I)a) | (~a_wins & (I)b));
}

// detail::portable_exp (ordered_math.hpp) lane by lane, in four lanes or as many as f32xw has:
// the same operations in the same order, so the same bits in every lane, whatever the width.
// floor() is built from a truncating conversion (exact for the |x log2 e| < 2^31 reached here).
template <typename V>
inline V portable_exp(V x) {
  using I = decltype(V{} > V{});  // the signed integers of V's shape
  const auto s = splat<V>;
  const I vanishes = ~(x > s(-87.0f));  // also NaN and -inf
  const I above = x > s(88.0f);
  x = (V)((above & (I)s(88.0f)) | (~above & (I)x));
  x = (V)(~vanishes & (I)x);  // any finite value in the lanes that give 0 anyway
  constexpr float kLn2High = 0.693359375f, kLn2Low = -2.12194440e-4f;
  const V y = x * s(1.44269504f) + s(0.5f);
  V k = __builtin_convertvector(__builtin_convertvector(y, I), V);
  k -= (V)((k > y) & (I)s(1.0f));
  const V r = (x - k * s(kLn2High)) - k * s(kLn2Low);
  V p = s(1.0f / 5040);
  p = p * r + s(1.0f / 720);
  p = p * r + s(1.0f / 120);
  p = p * r + s(1.0f / 24);
  p = p * r + s(1.0f / 6);
  p = p * r + s(0.5f);
  p = p * r + s(1.0f);
  p = p * r + s(1.0f);
  const I bits = (__builtin_convertvector(k, I) + 127) << 23;
  return (V)(~vanishes & (I)(p * (V)bits));
}

// detail::portable_tanh in four lanes: the same bits lane by lane (both branches are computed,
// each lane keeps its own).
inline f32x4 portable_tanh(f32x4 x) {
  const i32x4 sign = (i32x4)splat(-0.0f);
  const f32x4 a = (f32x4)((i32x4)x & ~sign);
  const i32x4 near_zero = a < splat(0.125f);
  const f32x4 x2 = a * a;
  const f32x4 series =
      a *
      (splat(1.0f) + x2 * (splat(-1.0f / 3) + x2 * (splat(2.0f / 15) + x2 * splat(-17.0f / 315))));
  const f32x4 e = portable_exp(splat(-2.0f) * a);
  const f32x4 ratio = (splat(1.0f) - e) / (splat(1.0f) + e);
  const f32x4 t = (f32x4)((near_zero & (i32x4)series) | (~near_zero & (i32x4)ratio));
  const i32x4 negative = x < splat(0.0f);
  return (f32x4)((negative & (i32x4)(-t)) | (~negative & (i32x4)t));
}

}  // namespace attn::simd

// C = A B and C = A B^T for row-major float matrices, with four-lane vectors (simd.hpp): the
// language model's products in wasm, where Eigen has no simd128 kernels and runs them lane by lane.
// Natively the core keeps Eigen's (blocked for the caches, AVX). Private to src/.
//
// The kernel holds a 4 x 8 block of C in eight vectors and walks the shared dimension once: for
// each p, two vectors of B's row p times four broadcast entries of A's column p. Each entry of C
// is summed over p = 0 .. k-1 in order, one multiply and one add at a time (no fused
// multiply-add), so the result does not depend on how the rows and columns are blocked.
#pragma once

#include "simd.hpp"

namespace attn::simd {

namespace detail {

// rows r0 .. r0 + R - 1 of C, columns j .. j + 4 W - 1 (W vectors of 4): R W accumulators, at
// most 8 (R <= 4 with W <= 2, or one row with W <= 8).
template <int R, int W>
inline void matmul_block(const float* a, int k, const float* b, int m, float* c, int r0, int j) {
  f32x4 acc[R][W] = {};
  for (int p = 0; p < k; ++p) {
    f32x4 bp[W];
    for (int w = 0; w < W; ++w) bp[w] = load(b + static_cast<long>(p) * m + j + 4 * w);
    for (int r = 0; r < R; ++r) {
      const f32x4 ap = splat(a[static_cast<long>(r0 + r) * k + p]);
      for (int w = 0; w < W; ++w) acc[r][w] += ap * bp[w];
    }
  }
  for (int r = 0; r < R; ++r) {
    for (int w = 0; w < W; ++w) store(c + static_cast<long>(r0 + r) * m + j + 4 * w, acc[r][w]);
  }
}

// Rows r0 .. r0 + R - 1 of C, every column. A single row (a vector times a matrix, as a
// decoder's step is) takes 32 columns at a time: its eight accumulators are independent chains of
// additions, where two would leave each addition waiting for the one before it.
template <int R>
inline void matmul_rows(const float* a, int k, const float* b, int m, float* c, int r0) {
  int j = 0;
  if constexpr (R == 1) {
    for (; j + 32 <= m; j += 32) matmul_block<1, 8>(a, k, b, m, c, r0, j);
  }
  for (; j + 8 <= m; j += 8) matmul_block<R, 2>(a, k, b, m, c, r0, j);
  for (; j + 4 <= m; j += 4) matmul_block<R, 1>(a, k, b, m, c, r0, j);
  for (; j < m; ++j) {  // the last m % 4 columns, one at a time, summed in the same order
    for (int r = 0; r < R; ++r) {
      float sum = 0;
      for (int p = 0; p < k; ++p) {
        sum += a[static_cast<long>(r0 + r) * k + p] * b[static_cast<long>(p) * m + j];
      }
      c[static_cast<long>(r0 + r) * m + j] = sum;
    }
  }
}

}  // namespace detail

// a: (n, k), b: (k, m), c: (n, m), all row-major, c not overlapping a or b -> c = a b.
inline void matmul(const float* a, int n, int k, const float* b, int m, float* c) {
  int r = 0;
  for (; r + 4 <= n; r += 4) detail::matmul_rows<4>(a, k, b, m, c, r);
  for (; r < n; ++r) detail::matmul_rows<1>(a, k, b, m, c, r);
}

// a: (n, k), b: (m, k), c: (n, m), all row-major, c not overlapping a or b -> c = a b^T: each
// entry the dot product of a row of a and a row of b, summed in four lanes (p = 0, 4, 8, ... in
// lane 0, and so on), the lanes added pairwise, then the last k % 4 terms in order. Four rows of
// b at a time share each load of a.
inline void matmul_transposed(const float* a, int n, int k, const float* b, int m, float* c) {
  const int k4 = k - k % 4;
  for (int i = 0; i < n; ++i) {
    const float* ai = a + static_cast<long>(i) * k;
    float* ci = c + static_cast<long>(i) * m;
    const auto finish = [&](f32x4 acc, const float* bj) {
      float rest = 0;
      for (int p = k4; p < k; ++p) rest += ai[p] * bj[p];
      return sum(acc) + rest;
    };
    int j = 0;
    for (; j + 4 <= m; j += 4) {
      const float* b0 = b + static_cast<long>(j) * k;
      const float *b1 = b0 + k, *b2 = b1 + k, *b3 = b2 + k;
      f32x4 s0{}, s1{}, s2{}, s3{};
      for (int p = 0; p < k4; p += 4) {
        const f32x4 x = load(ai + p);
        s0 += x * load(b0 + p);
        s1 += x * load(b1 + p);
        s2 += x * load(b2 + p);
        s3 += x * load(b3 + p);
      }
      ci[j] = finish(s0, b0);
      ci[j + 1] = finish(s1, b1);
      ci[j + 2] = finish(s2, b2);
      ci[j + 3] = finish(s3, b3);
    }
    for (; j < m; ++j) {
      const float* bj = b + static_cast<long>(j) * k;
      f32x4 s0{};
      for (int p = 0; p < k4; p += 4) s0 += load(ai + p) * load(bj + p);
      ci[j] = finish(s0, bj);
    }
  }
}

}  // namespace attn::simd

// C = A B, C += A^T B and C = A B^T for row-major float matrices, with the compiler's vector
// extensions (simd.hpp): the core's fixed-order products (ordered_math.hpp) natively and in wasm,
// and the language model's in wasm, where Eigen has no simd128 kernels and runs them lane by lane.
//
// The kernel holds a block of C, R rows by W vectors, in registers and walks the shared dimension
// once: for each p, W vectors of B's row p times R broadcast entries of A's column p. Each entry of
// C is summed over p = 0 .. k-1 in order, one multiply and one add at a time (no fused
// multiply-add), so the result does not depend on the vector width, on how the rows and columns
// are blocked, or on the panels below: every build gives the bits of the plain loop
// c += a(i, p) b(p, j) for p in order.
//
// Vectors are as wide as the target allows: 16 lanes with AVX-512, 8 with AVX, 4 otherwise (SSE,
// wasm simd128). Natively, large products (training's) run panel by panel, at most kDepthPanel
// values of p and kColumnPanel columns of B at a time, each panel of B copied into contiguous
// memory, so that it stays in the cache while every block of rows passes over it; C holds each
// entry's partial sum between depth panels, which rounds as the running sum does. In wasm, where
// the page's products are small (a decoder step is a single row), the kernel walks B in place.
//
// Each block-row function (rows_of) is compiled on its own, and whether it starts from zero is a
// template argument: with the flag tested at run time and the blocks inlined into product(), the
// browser's compiler made the page's translation slower in wasm, though the loop's wasm code was
// the same (bench/reports/translation.md, "Training through the product kernel").
#pragma once

#include <cstddef>
#include <cstring>
#include <vector>

#include "simd.hpp"

namespace attn::simd {

namespace detail {

#ifdef __wasm_simd128__
constexpr bool kPanels = false;
#else
constexpr bool kPanels = true;
#endif
constexpr int kDepthPanel = kPanels ? 256 : 1 << 30, kColumnPanel = kPanels ? 256 : 1 << 30;

// The left operand A (rows, depth), stored row-major with rows `stride` floats apart, or as its
// transpose (depth, rows) with rows `stride` apart: A(r, p) = data[r * stride + p], or
// data[p * stride + r] when kTransposed.
template <bool kTransposed>
struct Left {
  const float* data;
  long stride;
  const float* at(long r, long p) const {
    return kTransposed ? data + p * stride + r : data + r * stride + p;
  }
  Left from_depth(long p0) const { return {at(0, p0), stride}; }
};

// Rows r0 .. r0 + R - 1 of C, W vectors of L lanes from c (column 0 of the block; rows c_stride
// apart), summed over p in [0, depth) of A(r, p) B(p, :), B's rows b_stride apart from b: from
// zero when kStart, else from what C holds.
template <typename V, int R, int W, bool kStart, bool kT>
__attribute__((always_inline)) inline void block(Left<kT> a, int depth, const float* b,
                                                 long b_stride, float* c, long c_stride, int r0) {
  constexpr int L = sizeof(V) / sizeof(float);
  V acc[R][W];
  for (int r = 0; r < R; ++r) {
    for (int w = 0; w < W; ++w) {
      acc[r][w] = kStart ? V{} : load<V>(c + (r0 + r) * c_stride + L * w);
    }
  }
  for (int p = 0; p < depth; ++p) {
    V bp[W];
    for (int w = 0; w < W; ++w) bp[w] = load<V>(b + p * b_stride + L * w);
    for (int r = 0; r < R; ++r) {
      const V ap = splat<V>(*a.at(r0 + r, p));
      for (int w = 0; w < W; ++w) acc[r][w] += ap * bp[w];
    }
  }
  for (int r = 0; r < R; ++r) {
    for (int w = 0; w < W; ++w) store(c + (r0 + r) * c_stride + L * w, acc[r][w]);
  }
}

// The block of R rows: W wide vectors (eight for a single row, as a decoder's step is: independent
// chains of additions, where two would leave each addition waiting for the one before it).
template <int R>
constexpr int kBlockVectors = R == 1 ? 8 : (ATTN_WIDE_LANES == 16 ? 4 : 2);
constexpr int kTile = kBlockVectors<4> * ATTN_WIDE_LANES;  // columns of a packed tile of B

// Rows r0 .. r0 + R - 1 of C, `width` columns from c and b, depth [0, depth). Blocks of R rows by
// W wide vectors first, then narrower blocks, then the last width % 4 columns one at a time,
// summed in the same order.
template <int R, bool kStart, bool kT>
__attribute__((always_inline)) inline void rows_body(Left<kT> a, int depth, const float* b,
                                                     long b_stride, float* c, long c_stride, int r0,
                                                     int width) {
  constexpr int L = ATTN_WIDE_LANES, W = kBlockVectors<R>;
  int j = 0;
  for (; j + W * L <= width; j += W * L) {
    block<f32xw, R, W, kStart>(a, depth, b + j, b_stride, c + j, c_stride, r0);
  }
  if constexpr (L > 4) {
    for (; j + L <= width; j += L) {
      block<f32xw, R, 1, kStart>(a, depth, b + j, b_stride, c + j, c_stride, r0);
    }
  } else {
    for (; j + 8 <= width; j += 8) {
      block<f32x4, R, 2, kStart>(a, depth, b + j, b_stride, c + j, c_stride, r0);
    }
  }
  for (; j + 4 <= width; j += 4) {
    block<f32x4, R, 1, kStart>(a, depth, b + j, b_stride, c + j, c_stride, r0);
  }
  for (; j < width; ++j) {
    for (int r = 0; r < R; ++r) {
      float& entry = c[(r0 + r) * c_stride + j];
      float sum = kStart ? 0.0f : entry;
      for (int p = 0; p < depth; ++p) sum += *a.at(r0 + r, p) * b[p * b_stride + j];
      entry = sum;
    }
  }
}

template <int R, bool kStart, bool kT>
__attribute__((noinline)) void rows_of(Left<kT> a, int depth, const float* b, long b_stride,
                                       float* c, long c_stride, int r0, int width) {
  rows_body<R, kStart>(a, depth, b, b_stride, c, c_stride, r0, width);
}

// The same over B in packed tiles (pack_tiles below): one call for all of a block-row's tiles,
// which for the attention's short products (depth 16 to 64) costs less than a call a tile.
template <int R, bool kStart, bool kT>
__attribute__((noinline)) void packed_rows_of(Left<kT> a, int depth, const float* packed, int width,
                                              float* c, long c_stride, int r0) {
  int t = 0;
  for (; t + kTile <= width; t += kTile) {  // whole tiles: B's row stride a constant
    rows_body<R, kStart>(a, depth, packed + static_cast<long>(depth) * t, kTile, c + t, c_stride,
                         r0, kTile);
  }
  if (t < width) {
    rows_body<R, kStart>(a, depth, packed + static_cast<long>(depth) * t, width - t, c + t,
                         c_stride, r0, width - t);
  }
}

// rows_of with its start flag chosen at run time.
template <int R, bool kT>
inline void rows(Left<kT> a, int depth, const float* b, long b_stride, float* c, long c_stride,
                 int r0, int width, bool start) {
  if (start) {
    rows_of<R, true>(a, depth, b, b_stride, c, c_stride, r0, width);
  } else {
    rows_of<R, false>(a, depth, b, b_stride, c, c_stride, r0, width);
  }
}

// Every row of C over `width` columns from c and b, depth [0, depth).
template <bool kT>
inline void all_rows(Left<kT> a, int n, int depth, const float* b, long b_stride, float* c,
                     long c_stride, int width, bool start) {
  int r = 0;
  for (; r + 4 <= n; r += 4) rows<4>(a, depth, b, b_stride, c, c_stride, r, width, start);
  for (; r < n; ++r) rows<1>(a, depth, b, b_stride, c, c_stride, r, width, start);
}

// The columns of B (depth, width), rows b_stride apart, tile by tile (kTile columns, the last one
// narrower): tile t becomes the (depth, tile) row-major block at packed + depth t, so that a block
// of rows_of reads its part of B in order instead of one row from each of `depth` places
// b_stride floats apart (which, for strides that are multiples of 256 floats, share a few sets of
// the first-level cache). depth width floats.
inline void pack_tiles(const float* b, long b_stride, int depth, int width, float* packed) {
  for (int t = 0; t < width; t += kTile) {
    const int tile = t + kTile < width ? kTile : width - t;
    float* block = packed + static_cast<long>(depth) * t;
    if (tile == kTile) {  // a copy of known size, which the compiler turns into vector moves
      for (int p = 0; p < depth; ++p) {
        std::memcpy(block + static_cast<long>(p) * kTile, b + p * b_stride + t,
                    sizeof(float) * kTile);
      }
      continue;
    }
    for (int p = 0; p < depth; ++p) {  // the last, narrower tile: too short to repay a call
      for (int j = 0; j < tile; ++j)
        block[static_cast<long>(p) * tile + j] = b[p * b_stride + t + j];
    }
  }
}

// The same tiles of B = s^T, from s: (width, depth) row-major: tile t is rows t .. t + tile - 1 of
// s, transposed.
inline void pack_transposed_tiles(const float* s, int width, int depth, float* packed) {
  for (int t = 0; t < width; t += kTile) {
    const int tile = t + kTile < width ? kTile : width - t;
    transpose(s + static_cast<long>(t) * depth, tile, depth, packed + static_cast<long>(depth) * t);
  }
}

// Rows r0 .. r0 + R - 1 of C over `width` columns from c, depth [0, depth), with B in packed tiles.
template <int R, bool kT>
inline void packed_rows(Left<kT> a, int depth, const float* packed, int width, float* c,
                        long c_stride, int r0, bool start) {
  if (start) {
    packed_rows_of<R, true>(a, depth, packed, width, c, c_stride, r0);
  } else {
    packed_rows_of<R, false>(a, depth, packed, width, c, c_stride, r0);
  }
}

// C (n, m) = A B when start, else C += A B, with A (n, k) read through `a` and B (k, m) row-major.
// With enough rows to repay it, each panel of B is first packed in tiles (pack_tiles).
template <bool kT>
inline void product(Left<kT> a, int n, int k, const float* b, int m, float* c, bool start) {
  if (n == 0 || m == 0) return;  // an empty C (whose data may be null): nothing to write
  if (k == 0 && start) {
    std::memset(c, 0, sizeof(float) * static_cast<std::size_t>(n) * static_cast<std::size_t>(m));
    return;
  }
  const bool pack = kPanels && n >= 16 && m > kTile;
  thread_local std::vector<float> panel;
  for (int p0 = 0; p0 < k; p0 += kDepthPanel) {
    const int depth = p0 + kDepthPanel < k ? kDepthPanel : k - p0;
    const bool first = start && p0 == 0;
    const Left<kT> a_panel = a.from_depth(p0);
    for (int j0 = 0; j0 < m; j0 += kColumnPanel) {
      const int width = j0 + kColumnPanel < m ? kColumnPanel : m - j0;
      const float* b_panel = b + static_cast<long>(p0) * m + j0;
      if (!pack) {
        all_rows(a_panel, n, depth, b_panel, m, c + j0, m, width, first);
        continue;
      }
      panel.resize(static_cast<std::size_t>(depth) * static_cast<std::size_t>(width));
      pack_tiles(b_panel, m, depth, width, panel.data());
      int r = 0;
      for (; r + 4 <= n; r += 4)
        packed_rows<4>(a_panel, depth, panel.data(), width, c + j0, m, r, first);
      for (; r < n; ++r) packed_rows<1>(a_panel, depth, panel.data(), width, c + j0, m, r, first);
    }
  }
}

}  // namespace detail

// a: (n, k), b: (k, m), c: (n, m), all row-major, c not overlapping a or b -> c = a b.
inline void matmul(const float* a, int n, int k, const float* b, int m, float* c) {
  detail::product(detail::Left<false>{a, k}, n, k, b, m, c, true);
}

// Products of many blocks of rows with one right operand B (k, m): B packed once, by pack_right
// from B row-major or by pack_right_transposed from its transpose s = B^T: (m, k); k m floats.
inline void pack_right(const float* b, int k, int m, float* packed) {
  detail::pack_tiles(b, m, k, m, packed);
}

inline void pack_right_transposed(const float* s, int m, int k, float* packed) {
  detail::pack_transposed_tiles(s, m, k, packed);
}

// a: (n, k) with rows lda apart, B (k, m) packed as above, c: (n, m) with rows ldc apart, not
// overlapping a -> c = a B, with matmul's bits.
inline void matmul_packed(const float* a, long lda, int n, int k, const float* packed, int m,
                          float* c, long ldc) {
  const detail::Left<false> left{a, lda};
  int r = 0;
  for (; r + 4 <= n; r += 4) detail::packed_rows<4>(left, k, packed, m, c, ldc, r, true);
  for (; r < n; ++r) detail::packed_rows<1>(left, k, packed, m, c, ldc, r, true);
}

// a: (n, k), b: (n, m), c: (k, m), all row-major, c not overlapping a or b -> c += a^T b, each
// entry summed over the n rows in order after what c holds.
inline void add_transposed_matmul(const float* a, int n, int k, const float* b, int m, float* c) {
  detail::product(detail::Left<true>{a, k}, k, n, b, m, c, false);
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

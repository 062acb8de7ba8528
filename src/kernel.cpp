#include "attn/kernel.hpp"

#include <cmath>
#include <limits>

#include "checks.hpp"
#include "simd.hpp"

namespace attn {
namespace {

using simd::f32x4;

// One band of kRows rows of c: (kRows, n) = a: (kRows, k) · b: (k, n), row strides lda, ldb, ldc.
// A tile of kRows x 8 of c stays in vector accumulators while p runs over k, so each vector loaded
// from b feeds kRows multiply-adds. Four rows (8 accumulators) measured faster in wasm than six
// (12 accumulators, near the 16 vector registers of x86-64).
template <int kRows>
void matmul_band(const float* a, int lda, const float* b, int ldb, float* c, int ldc, int n,
                 int k) {
  int j = 0;
  for (; j + 8 <= n; j += 8) {
    f32x4 acc[kRows][2] = {};
    const float* bp = b + j;
    for (int p = 0; p < k; ++p, bp += ldb) {
      const f32x4 b0 = simd::load(bp);
      const f32x4 b1 = simd::load(bp + 4);
      for (int r = 0; r < kRows; ++r) {
        const f32x4 ar = simd::splat(a[r * lda + p]);
        acc[r][0] += ar * b0;
        acc[r][1] += ar * b1;
      }
    }
    for (int r = 0; r < kRows; ++r) {
      simd::store(c + r * ldc + j, acc[r][0]);
      simd::store(c + r * ldc + j + 4, acc[r][1]);
    }
  }
  for (; j + 4 <= n; j += 4) {  // leftover columns, four at a time
    f32x4 acc[kRows] = {};
    for (int p = 0; p < k; ++p) {
      const f32x4 bv = simd::load(b + p * ldb + j);
      for (int r = 0; r < kRows; ++r) acc[r] += simd::splat(a[r * lda + p]) * bv;
    }
    for (int r = 0; r < kRows; ++r) simd::store(c + r * ldc + j, acc[r]);
  }
  for (; j < n; ++j) {  // and one at a time
    float acc[kRows] = {};
    for (int p = 0; p < k; ++p) {
      for (int r = 0; r < kRows; ++r) acc[r] += a[r * lda + p] * b[p * ldb + j];
    }
    for (int r = 0; r < kRows; ++r) c[r * ldc + j] = acc[r];
  }
}

// c: (m, n) = a: (m, k) · b: (k, n), all row-major with the given row strides.
void matmul(const float* a, int lda, const float* b, int ldb, float* c, int ldc, int m, int n,
            int k) {
  constexpr int kBand = 4;
  int i = 0;
  for (; i + kBand <= m; i += kBand)
    matmul_band<kBand>(a + i * lda, lda, b, ldb, c + i * ldc, ldc, n, k);
  for (; i + 2 <= m; i += 2) matmul_band<2>(a + i * lda, lda, b, ldb, c + i * ldc, ldc, n, k);
  if (i < m) matmul_band<1>(a + i * lda, lda, b, ldb, c + i * ldc, ldc, n, k);
}

// dst: (cols, rows) = src: (rows, cols)^T
void transpose(const float* src, int rows, int cols, float* dst) {
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) dst[c * rows + r] = src[r * cols + c];
  }
}

// One query row: scaled = scores * scale; masked = scaled, or -inf where the key is hidden.
// Keys from `visible_end` on are hidden (the causal mask), and so are padded keys.
// Returns the largest masked value.
float scale_and_mask_row(const float* scores, int n, float scale, int visible_end,
                         const KeyPadding& padding, float* scaled, float* masked) {
  const float minus_inf = -std::numeric_limits<float>::infinity();
  const f32x4 scale4 = simd::splat(scale);
  f32x4 max4 = simd::splat(minus_inf);
  float row_max = minus_inf;
  int j = 0;
  if (padding.empty()) {
    for (; j + 4 <= visible_end; j += 4) {
      const f32x4 x = simd::load(scores + j) * scale4;
      simd::store(scaled + j, x);
      simd::store(masked + j, x);
      max4 = simd::max(max4, x);
    }
  }
  for (; j < visible_end; ++j) {
    scaled[j] = scores[j] * scale;
    masked[j] = padding.empty() || padding[j] == 0 ? scaled[j] : minus_inf;
    row_max = masked[j] > row_max ? masked[j] : row_max;
  }
  for (; j < n; ++j) {
    scaled[j] = scores[j] * scale;
    masked[j] = minus_inf;
  }
  const float vector_max = simd::max(max4);
  return vector_max > row_max ? vector_max : row_max;
}

// weights: (n) = softmax(logits: (n) / temperature), given the row maximum of the logits, which
// is finite. Only the first `count` logits may be finite; the rest get weight exactly 0, as do
// -inf logits among the first `count`.
void softmax_row(const float* logits, int count, int n, float row_max, float inverse_temperature,
                 float* weights) {
  // 1. exp of the shifted, temperature-divided logits, and their sum. Subtracting the maximum
  //    changes nothing mathematically (softmax is shift-invariant): numerical stability only.
  const f32x4 shift = simd::splat(row_max);
  const f32x4 inv_t = simd::splat(inverse_temperature);
  f32x4 sum4{};
  int j = 0;
  for (; j + 4 <= count; j += 4) {
    const f32x4 e = simd::exp_nonpositive((simd::load(logits + j) - shift) * inv_t);
    simd::store(weights + j, e);
    sum4 += e;
  }
  float total = simd::sum(sum4);
  for (; j < count; ++j) {
    const f32x4 e = simd::exp_nonpositive(simd::splat((logits[j] - row_max) * inverse_temperature));
    weights[j] = e[0];
    total += e[0];
  }
  // 2. Normalise (total >= 1: the maximum contributes exp(0)); hidden keys get exact zeros.
  const f32x4 inv_total = simd::splat(1.0f / total);
  for (j = 0; j + 4 <= count; j += 4) simd::store(weights + j, simd::load(weights + j) * inv_total);
  for (; j < count; ++j) weights[j] *= inv_total[0];
  for (; j < n; ++j) weights[j] = 0.0f;
}

}  // namespace

void attention_kernel(const AttentionBuffers& buf, const AttentionSizes& size,
                      const AttentionOptions& options) {
  constexpr const char* kWhere = "attention";
  if (size.n_q <= 0 || size.n_k <= 0 || size.d_k <= 0 || size.d_v <= 0) {
    detail::fail(kWhere, "every size must be at least 1, got n_q=" + std::to_string(size.n_q) +
                             ", n_k=" + std::to_string(size.n_k) + ", d_k=" +
                             std::to_string(size.d_k) + ", d_v=" + std::to_string(size.d_v));
  }
  using ConstMap = Eigen::Map<const Matrix>;
  check_attention_inputs(kWhere, ConstMap(buf.q, size.n_q, size.d_k),
                         ConstMap(buf.k, size.n_k, size.d_k), ConstMap(buf.v, size.n_k, size.d_v),
                         options);
  const int n_q = size.n_q, n_k = size.n_k;
  // 1. scores: (n_q, n_k) = q: (n_q, d_k) · k^T: (d_k, n_k). K is transposed first so that the
  //    inner loop reads contiguous rows of k^T.
  transpose(buf.k, n_k, size.d_k, buf.scratch);
  matmul(buf.q, size.d_k, buf.scratch, n_k, buf.scores, n_k, n_q, n_k, size.d_k);
  // 2-4. Per query row: scale, mask, softmax.
  const float scale = options.scale ? 1.0f / std::sqrt(static_cast<float>(size.d_k)) : 1.0f;
  for (int i = 0; i < n_q; ++i) {
    const int visible_end = options.causal ? i + 1 : n_k;  // causal: keys 0..i only
    const int offset = i * n_k;
    const float row_max =
        scale_and_mask_row(buf.scores + offset, n_k, scale, visible_end, options.key_padding,
                           buf.scaled + offset, buf.masked + offset);
    softmax_row(buf.masked + offset, visible_end, n_k, row_max, 1.0f / options.temperature,
                buf.weights + offset);
  }
  // 5. output: (n_q, d_v) = weights: (n_q, n_k) · v: (n_k, d_v).
  matmul(buf.weights, n_k, buf.v, size.d_v, buf.output, size.d_v, n_q, size.d_v, n_k);
}

AttentionTrace fast_scaled_dot_product_attention(const Matrix& q, const Matrix& k, const Matrix& v,
                                                 const AttentionOptions& options) {
  // Shapes first: the sizes below are read off q and v, and k is mapped with them.
  check_attention_inputs("attention", q, k, v, options);
  const AttentionSizes size{static_cast<int>(q.rows()), static_cast<int>(k.rows()),
                            static_cast<int>(q.cols()), static_cast<int>(v.cols())};
  AttentionTrace trace;
  trace.scores.resize(q.rows(), k.rows());
  trace.scaled.resize(q.rows(), k.rows());
  trace.masked.resize(q.rows(), k.rows());
  trace.weights.resize(q.rows(), k.rows());
  trace.output.resize(q.rows(), v.cols());
  Matrix scratch(k.cols(), k.rows());
  const AttentionBuffers buffers{q.data(),
                                 k.data(),
                                 v.data(),
                                 trace.scores.data(),
                                 trace.scaled.data(),
                                 trace.masked.data(),
                                 trace.weights.data(),
                                 trace.output.data(),
                                 scratch.data()};
  attention_kernel(buffers, size, options);
  return trace;
}

}  // namespace attn

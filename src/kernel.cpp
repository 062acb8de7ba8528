#include "attn/kernel.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "checks.hpp"
#include "simd.hpp"

namespace attn {
namespace {

using simd::f32x4;

// The columns of one narrow panel (width < 8, the last of a matrix in panels) of a band of kRows
// rows of c: (kRows, width) = a: (kRows, k) · b: (k, width), with a given as its transpose
// a_t: (k, kRows) and b row-major with row stride width; c has row stride ldc.
template <int kRows>
void narrow_panel_band(const float* a_t, const float* b, int width, int k, float* c, int ldc) {
  int j = 0;
  for (; j + 4 <= width; j += 4) {  // four columns at a time
    f32x4 acc[kRows] = {};
    for (int p = 0; p < k; ++p) {
      const f32x4 bv = simd::load(b + p * width + j);
      for (int r = 0; r < kRows; ++r) acc[r] += simd::load_splat(a_t + p * kRows + r) * bv;
    }
    for (int r = 0; r < kRows; ++r) simd::store(c + r * ldc + j, acc[r]);
  }
  for (; j < width; ++j) {  // and one at a time
    float acc[kRows] = {};
    for (int p = 0; p < k; ++p) {
      for (int r = 0; r < kRows; ++r) acc[r] += a_t[p * kRows + r] * b[p * width + j];
    }
    for (int r = 0; r < kRows; ++r) c[r * ldc + j] = acc[r];
  }
}

// dst: (cols, rows) = src: (rows, cols)^T, in blocks of 4 x 4 moved with vector shuffles.
void transpose(const float* src, int rows, int cols, float* dst) {
  int r = 0;
  for (; r + 4 <= rows; r += 4) {
    int c = 0;
    for (; c + 4 <= cols; c += 4) {
      const float* s = src + r * cols + c;
      const f32x4 s0 = simd::load(s), s1 = simd::load(s + cols);
      const f32x4 s2 = simd::load(s + 2 * cols), s3 = simd::load(s + 3 * cols);
      // Interleave pairs of rows, then pairs of pairs: column t of the block becomes lane row t.
      const f32x4 low01 = __builtin_shufflevector(s0, s1, 0, 4, 1, 5);
      const f32x4 high01 = __builtin_shufflevector(s0, s1, 2, 6, 3, 7);
      const f32x4 low23 = __builtin_shufflevector(s2, s3, 0, 4, 1, 5);
      const f32x4 high23 = __builtin_shufflevector(s2, s3, 2, 6, 3, 7);
      float* d = dst + c * rows + r;
      simd::store(d, __builtin_shufflevector(low01, low23, 0, 1, 4, 5));
      simd::store(d + rows, __builtin_shufflevector(low01, low23, 2, 3, 6, 7));
      simd::store(d + 2 * rows, __builtin_shufflevector(high01, high23, 0, 1, 4, 5));
      simd::store(d + 3 * rows, __builtin_shufflevector(high01, high23, 2, 3, 6, 7));
    }
    for (; c < cols; ++c) {
      for (int t = 0; t < 4; ++t) dst[c * rows + r + t] = src[(r + t) * cols + c];
    }
  }
  for (; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) dst[c * rows + r] = src[r * cols + c];
  }
}

// What every query row's softmax needs besides its scores.
struct RowSoftmax {
  float scale;                // 1 / sqrt(d_k), or 1
  float inverse_temperature;  // 1 / temperature
  const KeyPadding& padding;  // empty, or one flag per key
};

// One query row, in two passes over its scores and one over its weights, while the row sits in
// the first-level cache. The vector loops take eight scores a step, into two accumulators: half
// the loop overhead per score of four a step, and two independent chains of maxima and of sums
// that the processor runs side by side. scaled = scores * scale; masked = scaled, or -inf where the
// key is hidden; weights: (n) = softmax(masked / temperature). Keys from `visible_end` on are
// hidden (the causal mask), and so are padded keys; they get weight exactly 0. With kTrace false,
// scaled and masked are not written (they may be null) and `weights` may be `scores` itself: each
// weight is written after its score is read. The weights are the same bits either way.
template <bool kTrace>
void softmax_row(const float* scores, int n, int visible_end, const RowSoftmax& row, float* scaled,
                 float* masked, float* weights) {
  const float minus_inf = -std::numeric_limits<float>::infinity();
  const f32x4 scale = simd::splat(row.scale);
  const bool unpadded = row.padding.empty();
  // 1. The largest visible score (scale > 0 keeps its place), which exists: every query sees a
  //    key. And the trace.
  f32x4 max4 = simd::splat(minus_inf);
  float row_max = minus_inf;
  int j = 0;
  if (unpadded) {
    // The trace of scores j..j+3: scaled = masked = scores * scale.
    const auto trace4 = [&](int at, f32x4 s) {
      if (kTrace) {
        const f32x4 x = s * scale;
        simd::store(scaled + at, x);
        simd::store(masked + at, x);
      }
    };
    f32x4 max4_odd = max4;
    for (; j + 8 <= visible_end; j += 8) {
      const f32x4 s = simd::load(scores + j), s_odd = simd::load(scores + j + 4);
      trace4(j, s);
      trace4(j + 4, s_odd);
      max4 = simd::max(max4, s);
      max4_odd = simd::max(max4_odd, s_odd);
    }
    for (; j + 4 <= visible_end; j += 4) {
      const f32x4 s = simd::load(scores + j);
      trace4(j, s);
      max4 = simd::max(max4, s);
    }
    max4 = simd::max(max4, max4_odd);
  }
  for (; j < visible_end; ++j) {
    const bool visible = unpadded || row.padding[j] == 0;
    if (kTrace) scaled[j] = scores[j] * row.scale, masked[j] = visible ? scaled[j] : minus_inf;
    if (visible && scores[j] > row_max) row_max = scores[j];
  }
  if (kTrace) {
    for (; j < n; ++j) scaled[j] = scores[j] * row.scale, masked[j] = minus_inf;
  }
  const float vector_max = simd::max(max4);
  row_max = vector_max > row_max ? vector_max : row_max;
  // 2. exp((scaled - max) / temperature) as exp((score - max score) * scale / temperature), with
  //    the core's one exp (simd::portable_exp), and the sum. Subtracting the maximum changes
  //    nothing mathematically (softmax is shift-invariant): numerical stability only.
  const float to_exponent = row.scale * row.inverse_temperature;
  const f32x4 shift = simd::splat(row_max);
  const f32x4 factor = simd::splat(to_exponent);
  // exp of scores j..j+3, written to the weights.
  const auto exp4 = [&](int at) {
    const f32x4 e = simd::portable_exp((simd::load(scores + at) - shift) * factor);
    simd::store(weights + at, e);
    return e;
  };
  f32x4 sum4{};
  j = 0;
  if (unpadded) {
    f32x4 sum4_odd{};
    for (; j + 8 <= visible_end; j += 8) {
      sum4 += exp4(j);
      sum4_odd += exp4(j + 4);
    }
    for (; j + 4 <= visible_end; j += 4) sum4 += exp4(j);
    sum4 += sum4_odd;
  }
  float total = simd::sum(sum4);
  for (; j < visible_end; ++j) {
    const bool hidden = !unpadded && row.padding[j] != 0;
    const float t = (scores[j] - row_max) * to_exponent;
    const float e = hidden ? 0.0f : simd::portable_exp(simd::splat(t))[0];
    weights[j] = e;
    total += e;
  }
  // 3. Normalise (total >= 1: the maximum contributes exp(0) = 1); hidden keys get exact zeros.
  const f32x4 inv_total = simd::splat(1.0f / total);
  for (j = 0; j + 8 <= visible_end; j += 8) {
    simd::store(weights + j, simd::load(weights + j) * inv_total);
    simd::store(weights + j + 4, simd::load(weights + j + 4) * inv_total);
  }
  for (; j + 4 <= visible_end; j += 4) {
    simd::store(weights + j, simd::load(weights + j) * inv_total);
  }
  for (; j < visible_end; ++j) weights[j] *= inv_total[0];
  for (; j < n; ++j) weights[j] = 0.0f;
}

// Query rows per band.
constexpr int kBand = 4;

// A matrix b: (k, n) in panels of kPanel columns: panel j holds columns kPanel j ..
// kPanel j + kPanel - 1 as one contiguous (k, kPanel) row-major block, the last panel as many
// columns as are left over; n k floats in all. A tile of a product with b then reads from one
// run of memory, instead of from k rows that lie n floats apart (which, for n a multiple of 1024,
// all map to the same cache sets, and for long products overflow the first-level cache).
constexpr int kPanel = 8;

int panel_width(int n, int j) { return n - j < kPanel ? n - j : kPanel; }

// panels: b = src^T: (cols, rows) in panels, from src: (rows, cols).
void pack_transposed_panels(const float* src, int rows, int cols, float* panels) {
  for (int j = 0; j < rows; j += kPanel) {
    transpose(src + std::size_t(j) * cols, panel_width(rows, j), cols,
              panels + std::size_t(j) * cols);
  }
}

// panels: b = src: (rows, cols) in panels.
void pack_panels(const float* src, int rows, int cols, float* panels) {
  for (int j = 0; j < cols; j += kPanel) {
    const int width = panel_width(cols, j);
    float* panel = panels + std::size_t(j) * rows;
    for (int p = 0; p < rows; ++p) {
      const float* row = src + std::size_t(p) * cols + j;
      if (width == kPanel) {
        simd::store(panel + p * kPanel, simd::load(row));
        simd::store(panel + p * kPanel + 4, simd::load(row + 4));
      } else {
        for (int t = 0; t < width; ++t) panel[p * width + t] = row[t];
      }
    }
  }
}

// One band of kRows rows of c: (kRows, n) = a: (kRows, k) · b: (k, n), with a given as its
// transpose a_t: (k, kRows), so that the kRows values of a that step p needs lie side by side, and
// b in panels; c has row stride ldc. A tile of kRows x 8 of c stays in vector accumulators while p
// runs over k, so each vector loaded from b feeds kRows multiply-adds. Four rows take 8
// accumulators; six would take 12, which with the vectors loaded from a and b is near the 16
// vector registers of x86-64, and `npm run bench` times them slower in wasm. The loop over panels
// is inside, so that a short product (k = 16) pays for one call, not one per panel. Kept out of
// line: inlined into the attention bands, it makes the whole call slower in wasm (`npm run bench`
// shows it without the attribute).
template <int kRows>
__attribute__((noinline)) void panel_matmul_band(const float* a_t, const float* panels, int n,
                                                 int k, float* c, int ldc) {
  int j = 0;
  for (; j + kPanel <= n; j += kPanel) {
    f32x4 acc[kRows][2] = {};
    const float* bp = panels + std::size_t(j) * k;
    const float* ap = a_t;
    for (int p = 0; p < k; ++p, bp += kPanel, ap += kRows) {
      const f32x4 b0 = simd::load(bp);
      const f32x4 b1 = simd::load(bp + 4);
      for (int r = 0; r < kRows; ++r) {
        const f32x4 ar = simd::load_splat(ap + r);
        acc[r][0] += ar * b0;
        acc[r][1] += ar * b1;
      }
    }
    for (int r = 0; r < kRows; ++r) {
      simd::store(c + r * ldc + j, acc[r][0]);
      simd::store(c + r * ldc + j + 4, acc[r][1]);
    }
  }
  if (j < n) narrow_panel_band<kRows>(a_t, panels + std::size_t(j) * k, n - j, k, c + j, ldc);
}

// k^T: (d_k, n_k) and v: (n_k, d_v), both in panels, and room for one band's rows of q or of
// the weights, transposed: kBand max(d_k, n_k) floats.
struct PackedInputs {
  float* keys_t;
  float* values;
  float* band_t;
};

// Query rows i..i + kRows - 1 of every result: their scores (kRows, n_k) = q rows · k^T, their
// softmax, and their output (kRows, d_v) = weights rows · v. A band's scores and weights are still
// in cache when the next step reads them.
template <int kRows, bool kTrace>
void attention_band(const AttentionBuffers& buf, const AttentionSizes& size, bool causal,
                    const RowSoftmax& row, const PackedInputs& packed, int i) {
  const int n_k = size.n_k;
  const std::size_t offset = std::size_t(i) * n_k;
  float* weights = buf.weights + offset;
  // Without the trace, the scores are written where the weights go and replaced by them.
  float* scores = kTrace ? buf.scores + offset : weights;
  transpose(buf.q + std::size_t(i) * size.d_k, kRows, size.d_k, packed.band_t);
  panel_matmul_band<kRows>(packed.band_t, packed.keys_t, n_k, size.d_k, scores, n_k);
  for (int r = 0; r < kRows; ++r) {
    const int visible_end = causal ? i + r + 1 : n_k;  // causal: keys 0..i + r only
    const std::size_t at = std::size_t(r) * n_k;
    softmax_row<kTrace>(scores + at, n_k, visible_end, row,
                        kTrace ? buf.scaled + offset + at : nullptr,
                        kTrace ? buf.masked + offset + at : nullptr, weights + at);
  }
  transpose(weights, kRows, n_k, packed.band_t);
  panel_matmul_band<kRows>(packed.band_t, packed.values, size.d_v, n_k,
                           buf.output + std::size_t(i) * size.d_v, size.d_v);
}

// Every query row, band by band.
template <bool kTrace>
void attention_bands(const AttentionBuffers& buf, const AttentionSizes& size, bool causal,
                     const RowSoftmax& row, const PackedInputs& packed) {
  const int n_q = size.n_q;
  int i = 0;
  for (; i + kBand <= n_q; i += kBand)
    attention_band<kBand, kTrace>(buf, size, causal, row, packed, i);
  for (; i + 2 <= n_q; i += 2) attention_band<2, kTrace>(buf, size, causal, row, packed, i);
  if (i < n_q) attention_band<1, kTrace>(buf, size, causal, row, packed, i);
}

// Where attention_kernel leaves k^T and v in panels, and the band's room, in the scratch.
PackedInputs packed_inputs(const AttentionBuffers& buf, const AttentionSizes& size) {
  float* key_panels = buf.scratch;
  float* value_panels = key_panels + std::size_t(size.n_k) * size.d_k;
  return {key_panels, value_panels, value_panels + std::size_t(size.n_k) * size.d_v};
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
  // k^T and v in panels, so that the inner loops of both products read contiguous memory.
  const PackedInputs packed = packed_inputs(buf, size);
  pack_transposed_panels(buf.k, size.n_k, size.d_k, packed.keys_t);
  pack_panels(buf.v, size.n_k, size.d_v, packed.values);

  const RowSoftmax row{options.scale ? 1.0f / std::sqrt(static_cast<float>(size.d_k)) : 1.0f,
                       1.0f / options.temperature, options.key_padding};
  if (buf.scores) {
    attention_bands<true>(buf, size, options.causal, row, packed);
  } else {
    attention_bands<false>(buf, size, options.causal, row, packed);
  }
}

std::size_t attention_scratch_size(const AttentionSizes& size) {
  const auto count = [](int n) { return static_cast<std::size_t>(n > 0 ? n : 0); };
  return count(size.n_k) * (count(size.d_k) + count(size.d_v)) +
         kBand * std::max(count(size.d_k), count(size.n_k));
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
  std::vector<float> scratch(attention_scratch_size(size));
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

// The fast path of scaled dot-product attention: the same trace as scaled_dot_product_attention,
// computed by loops shaped for 128-bit SIMD (wasm simd128 when compiled for it).
#pragma once

#include <cstddef>

#include "attn/attention.hpp"

namespace attn {

// Raw row-major buffers, so that callers can keep them across calls.
struct AttentionBuffers {
  const float* q;  // (n_q, d_k)
  const float* k;  // (n_k, d_k)
  const float* v;  // (n_k, d_v)
  // The trace: all three, or all three null for none (then only weights and output are written,
  // the same bits as with the trace).
  float* scores;   // (n_q, n_k) out
  float* scaled;   // (n_q, n_k) out
  float* masked;   // (n_q, n_k) out
  float* weights;  // (n_q, n_k) out
  float* output;   // (n_q, d_v) out
  float* scratch;  // attention_scratch_size(sizes) floats of workspace
};

struct AttentionSizes {
  int n_q, n_k, d_k, d_v;
};

// Same contract as scaled_dot_product_attention; agrees with it within 1e-5. Inputs are checked
// (shapes, finiteness, masks) before any output is written.
void attention_kernel(const AttentionBuffers& buffers, const AttentionSizes& sizes,
                      const AttentionOptions& options);

// attention_kernel in two steps, so that a caller can take the results a few rows at a time while
// they are still in cache (the wasm facade copies them out so). attention_pack_inputs checks the
// inputs (shapes, finiteness, masks), as attention_kernel does, and leaves k and v rearranged in
// the scratch; attention_kernel_rows then computes query rows first .. first + count - 1, writing
// row i's results to row i - first of the result buffers, which need only `count` rows. The rows
// depend on the inputs and options alone, so a matrix computed in pieces is the same bits as in
// one call. Contract: the buffers, sizes and options are those of the last attention_pack_inputs,
// unchanged since, and 0 <= first, count >= 1, first + count <= n_q.
void attention_pack_inputs(const AttentionBuffers& buffers, const AttentionSizes& sizes,
                           const AttentionOptions& options);
void attention_kernel_rows(const AttentionBuffers& buffers, const AttentionSizes& sizes,
                           const AttentionOptions& options, int first, int count);

// The floats of workspace that attention_kernel needs (negative sizes count as 0).
std::size_t attention_scratch_size(const AttentionSizes& sizes);

// Convenience over attention_kernel with Eigen matrices, for tests and the benchmark.
AttentionTrace fast_scaled_dot_product_attention(const Matrix& q, const Matrix& k, const Matrix& v,
                                                 const AttentionOptions& options = {});

}  // namespace attn

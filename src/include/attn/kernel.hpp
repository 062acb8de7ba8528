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

// The floats of workspace that attention_kernel needs (negative sizes count as 0).
std::size_t attention_scratch_size(const AttentionSizes& sizes);

// Convenience over attention_kernel with Eigen matrices, for tests and the benchmark.
AttentionTrace fast_scaled_dot_product_attention(const Matrix& q, const Matrix& k, const Matrix& v,
                                                 const AttentionOptions& options = {});

}  // namespace attn

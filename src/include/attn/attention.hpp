// Scaled dot-product attention for the page: the whole trace as Eigen matrices, or into the
// caller's buffers. Both run the core's one dot-product attention, the one the trainable
// attention (attention_grad.hpp) runs, so the page shows the bits that training computes.
#pragma once

#include <cstddef>

#include "attn/matrix.hpp"

namespace attn {

struct AttentionOptions {
  bool scale = true;         // divide the scores by sqrt(d_k); off shows why it is there
  float temperature = 1.0f;  // softmax temperature, > 0
  bool causal = false;       // query i sees keys 0..i only; needs n_q == n_k
  KeyPadding key_padding;    // empty, or n_k flags (non-zero = padded key, never attended)
};

// Everything the page draws, in order of computation.
struct AttentionTrace {
  Matrix scores;   // (n_q, n_k)  Q · K^T
  Matrix scaled;   // (n_q, n_k)  scores / sqrt(d_k), or scores when scaling is off
  Matrix masked;   // (n_q, n_k)  scaled, with -inf where a mask hides the key
  Matrix weights;  // (n_q, n_k)  softmax of masked / temperature; masked entries exactly 0
  Matrix output;   // (n_q, d_v)  weights · V
};

// q: (n_q, d_k), k: (n_k, d_k), v: (n_k, d_v) -> trace as above, softmax(Q K^T / sqrt(d_k)) V.
// Throws InvalidArgument on inputs check_attention_inputs refuses.
AttentionTrace scaled_dot_product_attention(const Matrix& q, const Matrix& k, const Matrix& v,
                                            const AttentionOptions& options = {});

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

// The same as scaled_dot_product_attention, into the buffers. Inputs are checked (shapes,
// finiteness, masks) before any output is written.
void attention_kernel(const AttentionBuffers& buffers, const AttentionSizes& sizes,
                      const AttentionOptions& options);

// The floats of workspace that attention_kernel needs (negative sizes count as 0).
std::size_t attention_scratch_size(const AttentionSizes& sizes);

// Throws InvalidArgument unless q, k, v and the options fit together (see above). `where` names
// the caller in the message.
void check_attention_inputs(const char* where, const MatrixView& q, const MatrixView& k,
                            const MatrixView& v, const AttentionOptions& options);

}  // namespace attn

// Scaled dot-product attention, with every intermediate kept.
#pragma once

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

// q: (n_q, d_k), k: (n_k, d_k), v: (n_k, d_v) -> trace as above.
// The reference path: Eigen, written to read like the formula softmax(Q K^T / sqrt(d_k)) V.
AttentionTrace scaled_dot_product_attention(const Matrix& q, const Matrix& k, const Matrix& v,
                                            const AttentionOptions& options = {});

// Throws InvalidArgument unless q, k, v and the options fit together (see above). `where` names
// the caller in the message.
void check_attention_inputs(const char* where, const MatrixView& q, const MatrixView& k,
                            const MatrixView& v, const AttentionOptions& options);

// True when query i may attend to key j under the options' masks.
inline bool key_visible(const AttentionOptions& options, Eigen::Index i, Eigen::Index j) {
  if (options.causal && j > i) return false;
  return options.key_padding.empty() || options.key_padding[static_cast<size_t>(j)] == 0;
}

}  // namespace attn

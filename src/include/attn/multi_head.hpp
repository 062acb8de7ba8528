// Multi-head attention: h heads of scaled dot-product attention in d_k = d_model / h dimensions,
// for the page. The heads are the core's (heads_forward, attention_grad.hpp), the ones the
// language model's causal self-attention uses; this adds the projections and the checks.
#pragma once

#include <vector>

#include "attn/attention.hpp"

namespace attn {

// Row-vector convention: Q = X_q · W_q + b_q. Every W is (d_model, d_model); a bias is empty (no
// bias) or (d_model). Head i uses columns [i d_k, (i+1) d_k) of Q, K and V.
struct MultiHeadWeights {
  Matrix w_q, w_k, w_v, w_o;
  Vector b_q, b_k, b_v, b_o;
};

struct HeadTrace {
  Matrix weights;  // (n_q, n_k)
  Matrix output;   // (n_q, d_k)
};

struct MultiHeadTrace {
  std::vector<HeadTrace> heads;  // h of them
  Matrix output;                 // (n_q, d_model) = concat(head outputs) · W_o + b_o
};

struct MultiHeadOptions {
  bool causal = false;
  KeyPadding key_padding;  // empty or n_k flags
};

// x_q: (n_q, d_model), x_kv: (n_k, d_model), pass the same matrix twice for self-attention.
MultiHeadTrace multi_head_attention(const Matrix& x_q, const Matrix& x_kv, int heads,
                                    const MultiHeadWeights& weights,
                                    const MultiHeadOptions& options = {});

}  // namespace attn

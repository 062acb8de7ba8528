// Trainable attention, forward and backward: attention of n_q queries over n_k keys and values
// with additive, dot or scaled dot scoring, a causal mask and key padding, built on the row
// softmax of softmax.hpp. Dot and scaled dot scores run the core's one dot-product attention,
// the one the page's attention (attention.hpp) runs. Templates on the scalar (float and double,
// instantiated in attention_grad.cpp); the layer conventions are those of layers.hpp.
#pragma once

#include <vector>

#include "attn/layers.hpp"
#include "attn/softmax.hpp"

namespace attn {

// How a query q_t scores a key k_i (both of width d_k).
enum class Scoring {
  additive,    // Bahdanau: w . tanh(q_t + k_i), with a learned w: (1, d_k)
  dot,         // q_t . k_i
  scaled_dot,  // q_t . k_i / sqrt(d_k)
};

// "additive", "dot" or "scaled_dot".
const char* scoring_name(Scoring scoring);

struct AttentionGradOptions {
  Scoring scoring = Scoring::scaled_dot;
  bool causal = false;     // query t sees keys 0..n_k - n_q + t only: the queries are the last
                           // n_q positions of the keys' sequence (n_q <= n_k; all of it when
                           // n_q == n_k, each query then seeing itself and the keys before it)
  KeyPadding key_padding;  // empty, or n_k flags (non-zero = padded key, never attended)
};

// -- Attention ---------------------------------------------------------------------------------

template <typename T>
struct AttentionPass {
  AttentionGradOptions options;
  MatrixT<T> q;        // (n_q, d_k)
  MatrixT<T> k;        // (n_k, d_k)
  MatrixT<T> v;        // (n_k, d_v)
  MatrixT<T> hidden;   // additive only: (n_q * n_k, d_k), row t n_k + i = tanh(q_t + k_i), zero
                       // where key i is hidden from query t; empty otherwise
  MatrixT<T> scores;   // (n_q, n_k) scaled as the scoring says, -inf where hidden
  MatrixT<T> weights;  // (n_q, n_k) softmax of the scores by row; exactly 0 where hidden
  MatrixT<T> output;   // (n_q, d_v) = weights · v
};

template <typename T>
struct AttentionGradients {
  MatrixT<T> dq;  // (n_q, d_k)
  MatrixT<T> dk;  // (n_k, d_k)
  MatrixT<T> dv;  // (n_k, d_v)
};

// q: (n_q, d_k), k: (n_k, d_k), v: (n_k, d_v); w: (1, d_k) for additive scoring, else null.
// Throws InvalidArgument on shapes that do not fit, a missing or extra w, key padding of the
// wrong length, or a query left with no visible key.
template <typename T>
AttentionPass<T> attention_forward(MatrixT<T> q, MatrixT<T> k, MatrixT<T> v,
                                   const AttentionGradOptions& options, const Parameter<T>* w);

// d_output: (n_q, d_v) -> dL/dq, dL/dk, dL/dv; adds dL/dw into w->grad for additive scoring.
// Hidden (masked) query-key pairs contribute exactly nothing: a padded key gets zero gradient.
template <typename T>
AttentionGradients<T> attention_backward(const AttentionPass<T>& pass, const MatrixT<T>& d_output,
                                         Parameter<T>* w);

// -- Heads side by side --------------------------------------------------------------------------
// Multi-head attention without its projections, written once for the page's multi-head figure
// (multi_head.hpp) and the trainable attention layers (attention_layer.hpp: self- and
// cross-attention): with d_k = d / heads, head j attends with columns [j d_k, (j+1) d_k) of q, k
// and v, and its output fills the same columns of the result.

template <typename T>
struct HeadsPass {
  std::vector<AttentionPass<T>> heads;  // one per head: weights (n_q, n_k), output (n_q, d_k)
  MatrixT<T> output;                    // (n_q, d) the heads' outputs side by side
};

// q: (n_q, d), k: (n_k, d), v: (n_k, d) -> every head's pass and their outputs side by side.
// options.scoring is dot or scaled_dot (an additive head would need its own w). Throws
// InvalidArgument unless heads >= 1 divides d and q, k and v are d wide, and as
// attention_forward does.
template <typename T>
HeadsPass<T> heads_forward(const MatrixT<T>& q, const MatrixT<T>& k, const MatrixT<T>& v, int heads,
                           const AttentionGradOptions& options);

// d_output: (n_q, d) -> dL/dq (n_q, d), dL/dk (n_k, d), dL/dv (n_k, d), each head's part in its
// columns.
template <typename T>
AttentionGradients<T> heads_backward(const std::vector<AttentionPass<T>>& heads,
                                     const MatrixT<T>& d_output);

}  // namespace attn

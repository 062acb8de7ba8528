// Causal multi-head self-attention over one sequence, forward and backward: the attention layer
// of a decoder-only (GPT-style) transformer. A template on the scalar (float and double,
// instantiated in causal_self_attention.cpp); conventions as in layers.hpp.
//
// For x: (n, d_model) and h heads of width d_k = d_model / h:
//   Q = x W_q + b_q,  K = x W_k + b_k,  V = x W_v + b_v            (n, d_model) each
//   head j reads columns [j d_k, (j + 1) d_k) of Q, K and V:
//     A_j = softmax(mask(Q_j K_j^T / sqrt(d_k)))                  (n, n), 0 above the diagonal
//     O_j = A_j V_j                                               (n, d_k)
//   y = [O_0 ... O_{h-1}] W_o + b_o                               (n, d_model)
// The mask lets position t attend to positions 0..t only, so y_t depends on x_0..x_t alone.
// This is PyTorch's nn.MultiheadAttention with a causal attn_mask (row-vector weights: W_q is
// in_proj_weight[0:d].T, ...).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attn/attention_grad.hpp"
#include "attn/layers.hpp"

namespace attn {

template <typename T>
struct CausalSelfAttentionWeights {
  int heads = 1;
  Parameter<T> w_q, b_q, w_k, b_k, w_v, b_v;  // (d_model, d_model), (1, d_model)
  Parameter<T> w_o, b_o;                      // (d_model, d_model), (1, d_model)

  // Names them "<prefix>.W_q", "<prefix>.b_q", ..., "<prefix>.b_o".
  void name(const std::string& prefix) {
    const std::string at = prefix + ".";
    w_q.name = at + "W_q";
    b_q.name = at + "b_q";
    w_k.name = at + "W_k";
    b_k.name = at + "b_k";
    w_v.name = at + "W_v";
    b_v.name = at + "b_v";
    w_o.name = at + "W_o";
    b_o.name = at + "b_o";
  }
};

// Seeded weights named "<prefix>.W_q" etc.: each W uniform with variance 1 / d_model, W_o further
// times output_scale; biases 0. Throws InvalidArgument unless heads >= 1 divides d_model.
template <typename T>
CausalSelfAttentionWeights<T> causal_self_attention_weights(int d_model, int heads,
                                                            std::uint64_t seed, double output_scale,
                                                            const std::string& prefix);

// Which rows of y a forward pass computes: every one (training), or only the last, for reading a
// model's guess at the next word, where the other rows' outputs are never used (every row's
// attention weights still are, and are computed whole either way).
enum class OutputRows { every_position, last_position };

// The keys and values of the positions before a pass's first row, (p, d_model) each: reading a
// text again after an edit, the positions before the edit keep theirs (they see nothing after
// themselves), and only the rows from the edit on are computed. Empty (p = 0) for a whole text.
template <typename T>
struct PastKeysValues {
  MatrixT<T> keys, values;
};

template <typename T>
struct CausalSelfAttentionPass {
  LinearPass<T> query, key, value;      // (n, d_model) each: x's rows only, without the past's
  std::vector<AttentionPass<T>> heads;  // per head: weights (n, p + n), output (n, d_k)
  LinearPass<T> output;                 // y: (n or 1, d_model), from the heads' concatenation
  const MatrixT<T>& weights(int head) const { return heads[static_cast<size_t>(head)].weights; }
};

// x: (n, d_model) -> y: (n, d_model), or (1, d_model) for the last row alone, and every head's
// (n, n) attention weights. With past keys and values of p positions, x's rows stand at positions
// p .. p + n - 1 and also attend to the past: the weights are (n, p + n), and every row has the
// bits it has in a pass over the whole sequence. Throws InvalidArgument on shapes that do not fit.
// Only a pass of every row and no past can go back through causal_self_attention_backward.
template <typename T>
CausalSelfAttentionPass<T> causal_self_attention_forward(
    MatrixT<T> x, const CausalSelfAttentionWeights<T>& w,
    OutputRows rows = OutputRows::every_position, const PastKeysValues<T>* past = nullptr);

// dy: (n, d_model) -> dx: (n, d_model); adds every weight's gradient into its grad. The three
// projections read the same x, so dx is the sum of what flows back through each.
template <typename T>
MatrixT<T> causal_self_attention_backward(const CausalSelfAttentionPass<T>& pass,
                                          const MatrixT<T>& dy, CausalSelfAttentionWeights<T>& w);

}  // namespace attn

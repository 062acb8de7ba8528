// Multi-head attention with its four projections, forward and backward: self-attention over one
// sequence (causal for a decoder, unmasked for an encoder, either with key padding) and
// cross-attention of a decoder's states over an encoder's output. Templates on the scalar (float
// and double, instantiated in attention_layer.cpp); conventions as in layers.hpp.
//
// For queries from x_q: (n_q, d_model), keys and values from x_kv: (n_k, d_model), and h heads of
// width d_k = d_model / h:
//   Q = x_q W_q + b_q  (n_q, d_model),  K = x_kv W_k + b_k,  V = x_kv W_v + b_v  (n_k, d_model)
//   head j reads columns [j d_k, (j + 1) d_k) of Q, K and V:
//     A_j = softmax(mask(Q_j K_j^T / sqrt(d_k)))                  (n_q, n_k)
//     O_j = A_j V_j                                               (n_q, d_k)
//   y = [O_0 ... O_{h-1}] W_o + b_o                               (n_q, d_model)
// Self-attention has x_q = x_kv = x; its causal mask lets position t attend to positions 0..t
// only, so y_t depends on x_0..x_t alone. Key padding hides the padded keys from every query.
// Cross-attention has x_q = the decoder's states (T_dec, d_model) and x_kv = the encoder's output
// (T_enc, d_model), with the encoder's padding as key padding and no causal mask.
// This is PyTorch's nn.MultiheadAttention (row-vector weights: W_q is in_proj_weight[0:d].T, ...)
// with a causal attn_mask and a key_padding_mask.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attn/attention_grad.hpp"
#include "attn/layers.hpp"

namespace attn {

// The parameters of one multi-head attention layer, self- or cross-attention alike.
template <typename T>
struct AttentionLayerWeights {
  int heads = 1;
  Parameter<T> w_q, b_q, w_k, b_k, w_v, b_v;  // (d_model, d_model), (1, d_model)
  Parameter<T> w_o, b_o;                      // (d_model, d_model), (1, d_model)

  // Every parameter, in a fixed order: W_q, b_q, W_k, b_k, W_v, b_v, W_o, b_o.
  std::vector<Parameter<T>*> parameters() {
    return {&w_q, &b_q, &w_k, &b_k, &w_v, &b_v, &w_o, &b_o};
  }

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
AttentionLayerWeights<T> attention_layer_weights(int d_model, int heads, std::uint64_t seed,
                                                 double output_scale, const std::string& prefix);

// Which rows of y a forward pass computes: every one (training), or only the last, for reading a
// model's guess at the next word, where the other rows' outputs are never used (every row's
// attention weights still are, and are computed whole either way).
enum class OutputRows { every_position, last_position };

// The keys and values of the positions before a self-attention pass's first row, (p, d_model)
// each: reading a text again after an edit, the positions before the edit keep theirs (they see
// nothing after themselves), and only the rows from the edit on are computed. Empty (p = 0) for a
// whole text.
template <typename T>
struct PastKeysValues {
  MatrixT<T> keys, values;
};

// What a self-attention layer hides: the keys after each query (causal, a decoder's) and padded
// keys (an encoder's padded positions).
struct SelfAttentionMask {
  bool causal = false;
  KeyPadding key_padding;  // empty, or n flags (non-zero = padded position, never attended)
};

// The causal mask of a decoder's self-attention, without key padding.
inline SelfAttentionMask causal_mask() { return {true, {}}; }

template <typename T>
struct AttentionLayerPass {
  LinearPass<T> query;                  // (n_q, d_model) from x_q
  LinearPass<T> key, value;             // (n_k, d_model) from x_kv: without the past's rows
  std::vector<AttentionPass<T>> heads;  // per head: weights (n_q, p + n_k), output (n_q, d_k)
  LinearPass<T> output;                 // y: (n_q or 1, d_model), from the heads' concatenation
  // Head j's attention weights: (n_q, p + n_k), rows of a distribution, exactly 0 where hidden.
  const MatrixT<T>& weights(int head) const { return heads[static_cast<size_t>(head)].weights; }
};

// -- Self-attention ------------------------------------------------------------------------------

// x: (n, d_model) -> y: (n, d_model), or (1, d_model) for the last row alone, and every head's
// (n, n) attention weights. mask.key_padding is empty or n flags. With past keys and values of p
// positions (causal mask only, no key padding), x's rows stand at positions p .. p + n - 1 and
// also attend to the past: the weights are (n, p + n), and every row has the bits it has in a pass
// over the whole sequence. Throws InvalidArgument on shapes that do not fit, padding of the wrong
// length, or a position left with no key to see. Only a pass of every row and no past can go back
// through self_attention_backward.
template <typename T>
AttentionLayerPass<T> self_attention_forward(MatrixT<T> x, const AttentionLayerWeights<T>& w,
                                             const SelfAttentionMask& mask,
                                             OutputRows rows = OutputRows::every_position,
                                             const PastKeysValues<T>* past = nullptr);

// dy: (n, d_model) -> dx: (n, d_model); adds every weight's gradient into its grad. The three
// projections read the same x, so dx is the sum of what flows back through each. A padded
// position's key and value get no gradient.
template <typename T>
MatrixT<T> self_attention_backward(const AttentionLayerPass<T>& pass, const MatrixT<T>& dy,
                                   AttentionLayerWeights<T>& w);

// -- Cross-attention -----------------------------------------------------------------------------

// The encoder output's keys and values under one cross-attention layer: encoder_output:
// (T_enc, d_model) -> keys = encoder_output W_k + b_k, values = encoder_output W_v + b_v, (T_enc,
// d_model) each. A decoder that writes one word at a time projects them once a sentence and hands
// them to every step's cross_attention_forward.
template <typename T>
PastKeysValues<T> cross_attention_keys_values(const MatrixT<T>& encoder_output,
                                              const AttentionLayerWeights<T>& w);

// decoder_states: (T_dec, d_model) the queries' source, encoder_output: (T_enc, d_model) the keys'
// and values' source, encoder_padding: empty or T_enc flags (non-zero = padded English position)
// -> y: (T_dec, d_model), and every head's (T_dec, T_enc) attention weights (pass.weights(j)),
// exactly 0 on padded positions. With `projected` (cross_attention_keys_values of the encoder's
// output), its keys and values are used as they are and encoder_output is not read (pass an
// empty matrix): the same bits as projecting them here, and a pass that cannot go back. Throws
// InvalidArgument on shapes that do not fit, padding of the wrong length, or padding over every
// encoder position.
template <typename T>
AttentionLayerPass<T> cross_attention_forward(MatrixT<T> decoder_states, MatrixT<T> encoder_output,
                                              const AttentionLayerWeights<T>& w,
                                              const KeyPadding& encoder_padding,
                                              const PastKeysValues<T>* projected = nullptr);

template <typename T>
struct CrossAttentionGradients {
  MatrixT<T> d_decoder_states;  // (T_dec, d_model), through W_q
  MatrixT<T> d_encoder_output;  // (T_enc, d_model), through W_k and W_v; 0 on padded positions
};

// dy: (T_dec, d_model) -> dL/d(decoder_states), dL/d(encoder_output); adds every weight's
// gradient into its grad.
template <typename T>
CrossAttentionGradients<T> cross_attention_backward(const AttentionLayerPass<T>& pass,
                                                    const MatrixT<T>& dy,
                                                    AttentionLayerWeights<T>& w);

}  // namespace attn

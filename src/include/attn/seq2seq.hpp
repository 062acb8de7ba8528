// The two encoder-decoder models of the bottleneck experiment, forward and backward: one passes a
// single fixed-size vector from the encoder to the decoder, the other attends over every encoder
// state. A template on the scalar (float for training, double for the gradient checks).
//
// Both read a batch of padded sequences x (symbols 1..V, 0 = padding) and are told each length L.
//
// Encoder (both models), for input position i < L:
//   h_i = tanh((E[x_i] + P(r_i)) W_e + b_e),   r_i = L - 1 - i
// E is a learned embedding and P the sinusoidal positional encoding. The position is counted from
// the END of the input: the symbol that output step t must produce sits at r = t, so the decoder
// can find it by matching P(t) against P(r), whatever the length.
//
// Decoder, output step t < L, with query input P(t):
//   fixed vector:  c = tanh(mean_i(h_i) W_c + b_c), one (d_model) vector for the whole input;
//                  y_t = softmax(tanh([c ; P(t)] W_d + b_d) W_o + b_o)
//   attention:     q_t = P(t) W_q, k_i = h_i W_k, v_i = h_i W_v;
//                  alpha_t = softmax over i < L of score(q_t, k_i) (additive, dot or scaled dot);
//                  context_t = sum_i alpha_ti v_i;
//                  y_t = softmax(tanh([context_t ; P(t)] W_d + b_d) W_o + b_o)
// The same output head in both, so the only difference is one vector against attention. The loss
// is the mean cross-entropy of y_t against x_{L-1-t} over every real (unpadded) output step.
#pragma once

#include <cstdint>
#include <vector>

#include "attn/attention_grad.hpp"
#include "attn/bridge.hpp"
#include "attn/layers.hpp"
#include "attn/reversal_task.hpp"

namespace attn {

// "fixed" or "attention": the reversal training's names for the two bridges.
const char* model_name(Bridge kind);

// The longest sequence a model can read or write: its positional table has this many rows.
constexpr int kMaxSequenceLength = 32;

struct ModelOptions {
  Bridge kind = Bridge::attention;
  Scoring scoring = Scoring::scaled_dot;  // attention model only
  int d_model = 32;                       // width of E, P, h, the context and the decoder
  int d_k = 32;                           // width of queries and keys (attention model only)
  int vocab = 8;                          // V: symbols 1..V
  std::uint64_t seed = 1;                 // initial weights
};

// Everything one forward pass computed that the backward pass needs, and what callers read.
template <typename T>
struct Seq2SeqPass {
  ReversalBatch batch;
  EmbeddingPass<T> embedding;    // (B L, d_model) rows E[x], zero for padding
  LinearPass<T> encoder_linear;  // (B L, d_model)
  TanhPass<T> encoder;           // h: (B L, d_model)
  // attention model
  LinearPass<T> query, key, value;          // (L, d_k), (B L, d_k), (B L, d_model)
  std::vector<AttentionPass<T>> attention;  // per sequence: weights (L, L), output (L, d_model)
  // fixed-vector model
  MatrixT<T> mean;               // (B, d_model) mean of h over real positions
  LinearPass<T> summary_linear;  // (B, d_model)
  TanhPass<T> summary;           // c: (B, d_model)
  // both
  LinearPass<T> decoder_linear;  // (B L, d_model) from [context or c ; P(t)]
  TanhPass<T> decoder;           // (B L, d_model)
  LinearPass<T> output;          // logits: (B L, V)
  std::vector<int> targets;      // (B L) class = symbol - 1, or kIgnoredTarget
  MatrixT<T> d_logits;           // (B L, V) dL/dlogits
  T loss = 0;                    // mean cross-entropy over real output steps
  std::vector<int> predictions;  // (B L) argmax symbol 1..V, 0 at padded steps
};

template <typename T>
class Seq2Seq {
 public:
  // Seeded initial weights, the same numbers for float and double (drawn in float). Throws
  // InvalidArgument unless 2 <= d_model <= 256, 1 <= d_k <= 1024 and 2 <= vocab <= 64.
  explicit Seq2Seq(const ModelOptions& options);

  // batch: sequences of length at most kMaxSequenceLength with symbols 1..vocab, laid out as
  // reversal_task.hpp says. Throws InvalidArgument on a batch that does not hold together (sizes,
  // lengths, symbols, padding), before anything is computed.
  Seq2SeqPass<T> forward(const ReversalBatch& batch) const;

  // Adds dL/d(every parameter) for the pass's loss into the parameters' gradients.
  void backward(const Seq2SeqPass<T>& pass);

  void zero_grad();
  // The trainable parameters, in a fixed order (stable pointers into this model).
  std::vector<Parameter<T>*> parameters();
  const ModelOptions& options() const { return options_; }

 private:
  ModelOptions options_;
  MatrixT<T> positions_;  // (kMaxSequenceLength, d_model) P
  Parameter<T> embedding_, encoder_w_, encoder_b_;
  Parameter<T> query_w_, key_w_, value_w_, score_w_;  // attention model (score_w_: additive)
  Parameter<T> summary_w_, summary_b_;                // fixed-vector model
  Parameter<T> decoder_w_, decoder_b_, output_w_, output_b_;
};

}  // namespace attn

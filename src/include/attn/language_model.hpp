// A small causal (GPT-style) language model on frozen word vectors, forward and backward. A
// template on the scalar (float for training, double for the gradient checks; instantiated in
// language_model.cpp); conventions as in layers.hpp. docs/language-model.md draws it with shapes.
//
// For a sequence of n <= context token ids t_0 .. t_{n-1}:
//   x_i = E[t_i] W_in + b_in + P_i                    (n, d_model)  E frozen (vocab, d_embed),
//                                                                   P learned (context, d_model)
//   x = block_l(x) for l = 0 .. layers-1              (n, d_model)  pre-layer-norm decoder blocks
//   h = LayerNorm_f(x)                                (n, d_model)
//   logits = (h W_out) E^T + b_out                    (n, vocab)    the output tied to the same E
// Position i's logits predict token i + 1 and depend on t_0 .. t_i only (causal attention).
// The loss over a batch is the mean softmax cross-entropy of every counted next token.
#pragma once

#include <cstdint>
#include <vector>

#include "attn/decoder_block.hpp"
#include "attn/layer_norm.hpp"
#include "attn/layers.hpp"

namespace attn {

struct LanguageModelConfig {
  int vocab = 0;                // rows of the word vectors E
  int d_embed = 100;            // their width (frozen)
  int d_model = 128;            // width of the residual stream
  int layers = 2;               // decoder blocks
  int heads = 4;                // per block; must divide d_model
  int d_mlp = 512;              // hidden width of each block's MLP
  int context = 64;             // longest sequence, rows of P
  std::uint64_t seed = 1;       // initial weights
  float position_scale = 0.2f;  // P starts unit normal times this
};

// Which positions get logits: all of them (training), or only the last (reading the model: its
// guess at the next word and every head's weights). For the last position the (n, vocab) product
// shrinks to one row, and the last block computes only its last row after the attention weights
// (OutputRows::last_position): a pass that backward refuses.
enum class LogitRows { every_position, last_position };

template <typename T>
struct LanguageModelPass {
  std::vector<int> tokens;                  // (n)
  LinearPass<T> input;                      // (n, d_model) E[t] W_in + b_in; x = E[t] (n, d_embed)
  MatrixT<T> x0;                            // (n, d_model) with P added
  std::vector<DecoderBlockPass<T>> blocks;  // per layer, each (n, d_model); the last (1, d_model)
                                            // for last_position
  LayerNormPass<T> final_norm;              // h: (rows, d_model)
  LinearPass<T> projection;                 // (rows, d_embed) h W_out, rows as `logits`
  MatrixT<T> logits;                        // (rows, vocab): rows n, or 1 for last_position
  LogitRows rows = LogitRows::every_position;

  // Layer l's head j: (n, n) weights, row i over positions 0..i, exactly 0 above the diagonal.
  const MatrixT<T>& attention_weights(int layer, int head) const {
    return blocks[static_cast<size_t>(layer)].weights(head);
  }

  // -> (layers * heads * n * n): every head's weights one after another, layer l's head j at
  // offset ((l * heads) + j) * n * n, each (n, n) row-major.
  std::vector<T> all_attention_weights() const {
    const size_t n = tokens.size(), area = n * n;
    std::vector<T> all;
    for (const DecoderBlockPass<T>& block : blocks) {
      for (const AttentionPass<T>& head : block.self_attention.attention.heads) {
        all.insert(all.end(), head.weights.data(), head.weights.data() + area);
      }
    }
    return all;
  }
};

// One reading of a text by the model (LanguageModel::read), kept so that reading its next version
// computes only the positions from the first changed token on: a causal model's position i
// depends on tokens 0..i alone, so the positions before an edit keep their keys, values and
// weights. Typing at the end of a text changes its last token or adds one.
template <typename T>
struct LanguageModelReading {
  std::vector<int> tokens;               // (n) the ids read
  std::vector<MatrixT<T>> keys, values;  // per block: (n, d_model), every head's columns
  std::vector<T> weights;  // (layers * heads * n * n) as LanguageModelPass::all_attention_weights
  MatrixT<T> logits;       // (1, vocab): the guess at the token after the last
};

template <typename T>
class LanguageModel {
 public:
  // word_vectors: (vocab, d_embed), kept frozen (never a parameter). Seeded initial weights, the
  // same numbers for float and double (drawn in float): W_in and W_out uniform with variance
  // 1 / fan_in, W_in divided by the RMS entry of E (token inputs of unit scale) and W_out by
  // the RMS row norm of E (logits of unit variance at the start); P unit normal times
  // config.position_scale;
  // W_o and W_2 of every block times 1 / sqrt(2 layers) (the residual stream's variance grows
  // by about 1 per block, not per sublayer); biases 0, gains 1.
  // Throws InvalidArgument on a config out of range or word vectors of the wrong shape.
  LanguageModel(const LanguageModelConfig& config, MatrixT<T> word_vectors);

  // A model of given (trained) weights, with no seeded weights drawn: values holds every
  // parameter in the order of parameters(), shaped as language_model_parameter_shapes(config)
  // (lm_weights.hpp), and each is moved into its parameter. config.seed and
  // config.position_scale are unused. The same checks as the constructor (config, the word
  // vectors' shape, finite and not all zero), then the number and shape of the values; throws
  // InvalidArgument. The values are taken as they are: every one should be finite
  // (parse_language_model_weights refuses a file holding an infinity or NaN).
  // Gradients are not allocated until backward() or zero_grad() needs them, so a model that is
  // only read costs no memory for them.
  static LanguageModel from_weights(const LanguageModelConfig& config, MatrixT<T> word_vectors,
                                    std::vector<MatrixT<T>> values);

  // tokens: n ids in [0, vocab) with 1 <= n <= context -> logits (n or 1, vocab) and every
  // intermediate the backward pass needs.
  LanguageModelPass<T> forward(const std::vector<int>& tokens,
                               LogitRows rows = LogitRows::every_position) const;

  // tokens: n ids as forward() takes them; before: the reading of the text before (empty for
  // none) -> every head's weights and the last position's logits, each the same bits as
  // forward(tokens, LogitRows::last_position) gives. Positions up to the first token that differs
  // from before's (but never the last) keep before's rows; the others are computed. Throws
  // InvalidArgument as forward() does, or when before is not a reading of this model's shape.
  // before is taken by value, so that a caller who moves it in lets its memory go as soon as it
  // is read: the new reading then reuses it.
  LanguageModelReading<T> read(const std::vector<int>& tokens,
                               LanguageModelReading<T> before) const;

  // d_logits: the shape of pass.logits -> adds dL/d(every parameter) into its grad. Throws
  // InvalidArgument for a pass of LogitRows::last_position, which kept too little to go back.
  // A model built by from_weights() gets zero gradients here on its first backward.
  void backward(const LanguageModelPass<T>& pass, const MatrixT<T>& d_logits);

  // inputs[s], targets[s]: sequence s's tokens and, for each position, the id of the token that
  // should follow it, or kIgnoredTarget. Returns the mean cross-entropy over every counted
  // target of the batch. Throws InvalidArgument on mismatched sizes or when every target is
  // ignored.
  T loss(const std::vector<std::vector<int>>& inputs,
         const std::vector<std::vector<int>>& targets) const;

  // The same loss, and adds its gradient with respect to every parameter into the parameters'
  // grads (zero them first for one batch's gradient). Sequences run one after the other, in
  // order, so a native build repeats its numbers exactly from a seed.
  T loss_and_backward(const std::vector<std::vector<int>>& inputs,
                      const std::vector<std::vector<int>>& targets);

  void zero_grad();
  // The trainable parameters in a fixed order: W_in, b_in, P, each block's (see
  // DecoderBlockWeights), final_norm.gain, final_norm.bias, W_out, b_out. Stable pointers.
  std::vector<Parameter<T>*> parameters();
  const LanguageModelConfig& config() const { return config_; }
  const MatrixT<T>& word_vectors() const { return word_vectors_; }

 private:
  LanguageModel() = default;  // for from_weights(), which fills every member

  // forward() for the rows of positions first .. n - 1 of the n tokens, each block attending also
  // to past[l], its keys and values of positions 0 .. first - 1 (past empty when first is 0).
  // Rows below are n - first where forward's are n.
  LanguageModelPass<T> forward_rows(const std::vector<int>& tokens, Eigen::Index first,
                                    LogitRows rows,
                                    const std::vector<PastKeysValues<T>>& past) const;

  // Names every parameter: "W_in", "b_in", "P", "block<l>.norm1.gain", ..., "W_out", "b_out".
  // Both ways of making a model name them here, so the names, which the weights file and the
  // page read, are written once.
  void name_parameters();

  LanguageModelConfig config_;
  MatrixT<T> word_vectors_;  // E: (vocab, d_embed), frozen
  Parameter<T> input_w_, input_b_, positions_;
  std::vector<DecoderBlockWeights<T>> blocks_;
  LayerNormWeights<T> final_norm_;
  Parameter<T> output_w_, output_b_;
};

}  // namespace attn

// The two English-to-German translation models of the lesson, after Bahdanau, Cho and Bengio
// (2015): an RNN encoder-decoder that hands the decoder one fixed vector (their RNNencdec), and
// one whose decoder attends over every encoder state at every step (RNNsearch). Forward and
// backward, as a template on the scalar (float for training, double for the gradient checks;
// instantiated in translator.cpp); conventions as in layers.hpp. docs/translation.md draws it.
//
// For an English sentence x_1 .. x_n (ids into the page's word vectors, unknown = their count):
//   e_j = X[x_j]                                    (d_x)   X frozen, but for a learned row for
//                                                           unknown words
//   f_j = GRU_f(f_{j-1}, e_j),  b_j = GRU_b(b_{j+1}, e_j)   (H_e) each, from zero
//   h_j = [f_j ; b_j]                               (2 H_e) the encoder state of word j
//   s_0 = tanh([f_n ; b_1] W_init + b_init)         (H_d)   the decoder's start
// For German output step t = 1 .. m + 1 (y_0 = <s>, y_{m+1} = </s>):
//   fixed vector:  c_t = [f_n ; b_1]                         the same vector at every step
//   attention:     e_tj = v . tanh(s_{t-1} W_a + h_j U_a + b_a),  alpha_t = softmax_j(e_t),
//                  c_t = sum_j alpha_tj h_j                  (2 H_e)
//   s_t = GRU_d(s_{t-1}, [D[y_{t-1}] ; c_t])        (H_d)   D the German embeddings (V, d_y)
//   o_t = tanh([s_t ; c_t ; D[y_{t-1}]] W_o + b_o)  (d_y)
//   p(y_t) = softmax(o_t D^T + b_out)               (V)     the output tied to D
// The two models have the same layers but for the attention's W_a, U_a, b_a and v; the loss is the
// mean cross-entropy of every German word and end marker of the batch (teacher forcing).
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "attn/attention_grad.hpp"
#include "attn/bridge.hpp"
#include "attn/gru.hpp"
#include "attn/layers.hpp"

namespace attn {

// The German vocabulary's first four ids.
constexpr int kTargetPadding = 0;
constexpr int kTargetStart = 1;    // <s>, the decoder's first input
constexpr int kTargetEnd = 2;      // </s>, written last
constexpr int kTargetUnknown = 3;  // <unk>, any word outside the vocabulary

// The longest English input and German output a model handles, in tokens (German: with </s>).
constexpr int kMaxTranslationLength = 128;

// The widest beam translate() searches with.
constexpr int kMaxBeam = 16;

struct TranslatorConfig {
  Bridge bridge = Bridge::attention;
  int source_words = 0;     // rows of the word vectors X; id source_words is the unknown word
  int source_width = 100;   // d_x, their width
  int target_words = 0;     // V, German vocabulary with its four special ids
  int target_width = 64;    // d_y
  int encoder_state = 128;  // H_e, each direction
  int decoder_state = 256;  // H_d
  int attention = 128;      // d_a, the width of e_tj's tanh (attention model only)
  std::uint64_t seed = 1;   // initial weights
};

// Throws InvalidArgument unless every width is in [1, 4096], source_words >= 1 and
// target_words > 4.
void check_translator_config(const TranslatorConfig& config);

// The (rows, cols) of every parameter of a model of this config, in the order of
// Translator::parameters(), worked out without building one. Throws as check_translator_config.
std::vector<std::pair<int, int>> translator_parameter_shapes(const TranslatorConfig& config);

// Sentence pairs for a step, padded: English ids time-major (row j B + b is word j of pair b) and
// German ids without <s> or </s>.
struct TranslationBatch {
  std::vector<std::vector<int>> sources;  // (B) English ids, 1 .. kMaxTranslationLength each
  std::vector<std::vector<int>> targets;  // (B) German ids, 0 .. kMaxTranslationLength - 1 each
};

// One decoder step of B rows: the pairs of a batch in forward(), the hypotheses of a search in
// translate(); both run it through the same function.
template <typename T>
struct TranslatorDecoderStep {
  std::vector<AttentionPass<T>> attention;  // per active row (attention model): alpha_t, e_t
  std::vector<int> attended;                // the row of each attention pass
  LinearPass<T> query;                      // (B, d_a) s_{t-1} W_a (attention model)
  MatrixT<T> context;                       // (B, 2 H_e) c_t
  LinearPass<T> input;                      // (B, 3 H_d) [D y ; c_t] W_x + b_x
  GruStepPass<T> cell;                      // s_t: (B, H_d)
};

// What one forward pass computed that the backward pass needs, and what callers read.
template <typename T>
struct TranslatorPass {
  int batch = 0, source_steps = 0, target_steps = 0;
  std::vector<int> source_lengths;       // (B) n
  std::vector<int> target_lengths;       // (B) m + 1 (with </s>)
  std::vector<int> source_ids;           // (n_max B) time-major, unknown words included
  MatrixT<T> embedded;                   // (n_max B, d_x) e_j, zero at padding, after dropout
  MatrixT<T> source_mask, target_mask;   // dropout's masks of embedded and target_embedding.y
  MatrixT<T> output_mask;                // and of [s ; c ; D y]; each empty without dropout
  GruSequencePass<T> forward, backward;  // the encoder's two directions
  MatrixT<T> summary;                    // (B, 2 H_e) [f_n ; b_1]
  LinearPass<T> init_linear;             // (B, H_d)
  TanhPass<T> init;                      // s_0: (B, H_d)
  std::vector<MatrixT<T>> states;        // per pair: h (n, 2 H_e)
  std::vector<LinearPass<T>> keys;       // per pair: (n, d_a) h U_a + b_a (attention model)
  EmbeddingPass<T> target_embedding;     // (m_max B, d_y) D[y_{t-1}], time-major, after dropout
  std::vector<TranslatorDecoderStep<T>> steps;
  LinearPass<T> output_linear;  // (m_max B, d_y) from [s ; c ; D y]
  TanhPass<T> output;           // o: (m_max B, d_y)
  std::vector<int> labels;      // (m_max B) y_t, or kIgnoredTarget past the end
  MatrixT<T> d_logits;          // (m_max B, V) dL/dlogits
  T loss = 0;                   // mean cross-entropy per German token and </s>
  int counted = 0;              // tokens the loss counts
};

// A translation the model wrote (Translator::translate), with the attention weights of each word
// written.
struct Translation {
  std::vector<int> words;     // German ids, without </s>
  Matrix weights;             // (words + 1, n) row t = alpha_t (the last row: </s>); for the fixed
                              // vector model (words + 1, 0)
  Matrix scores;              // (words + 1, n) row t = e_t, the additive scores before the softmax
                              // (alpha_t = softmax(e_t)); for the fixed vector model (words + 1, 0)
  float log_probability = 0;  // of the words and </s>, natural log, each step's softmax taken
                              // over the ids it may write (all but padding and <s>)
};

// GNMT's length penalty (Wu et al., 2016), lp(L) = ((5 + L) / 6)^0.6, for a translation of L
// tokens (its words and </s>): translate() ranks finished hypotheses by log p / lp(L). Computed
// from portable_exp and portable_log (random.hpp), so every build ranks alike. Throws
// InvalidArgument unless 1 <= length <= kMaxTranslationLength.
double translation_length_penalty(int length);

template <typename T>
class FrozenTranslator;

template <typename T>
class Translator {
 public:
  // word_vectors: (source_words, source_width), frozen. Seeded initial weights, the same numbers
  // for float and double. Throws InvalidArgument as check_translator_config does, or when the
  // word vectors do not have the configured shape.
  Translator(const TranslatorConfig& config, MatrixT<T> word_vectors);

  // A model of given (trained) weights, with no seeded weights drawn: values holds every
  // parameter in the order of parameters(), shaped as translator_parameter_shapes(config), each
  // moved into its parameter. The word vectors are shared, not copied: models of one file read
  // the same ones. Gradients are not allocated until backward() or zero_grad() needs them, so a
  // model that only translates costs no memory for them. Throws InvalidArgument as the
  // constructor does, or on values of the wrong number or shape.
  static Translator from_weights(const TranslatorConfig& config,
                                 std::shared_ptr<const MatrixT<T>> word_vectors,
                                 std::vector<MatrixT<T>> values);

  // Teacher-forced pass over a batch. With a dropout rate above 0 (training), the English word
  // vectors, the decoder's German inputs D[y_{t-1}] and the output layer's input [s ; c ; D y]
  // each go through dropout_forward (layers.hpp) with `rng`, in that order. Throws
  // InvalidArgument on an empty batch, a sentence of 0 or more than kMaxTranslationLength tokens
  // (German: with </s>), an id out of range, or a rate outside [0, 1) or above 0 without rng.
  TranslatorPass<T> forward(const TranslationBatch& batch, double dropout = 0,
                            Rng* rng = nullptr) const;

  // Adds dL/d(every parameter) for the pass's loss into the parameters' gradients (allocating
  // them first for a model made by from_weights()).
  void backward(const TranslatorPass<T>& pass);

  // Writes a translation one word at a time, until </s> or max_words words (after which the next
  // step can only end it); each step's log-probabilities are a softmax over the ids the model may
  // write (all but padding and <s>).
  // beam = 1 is greedy decoding: each step writes the likeliest word given those before (of equal
  // logits the first). A wider beam searches over partial translations, as Bahdanau et al. (2015)
  // decoded: each live hypothesis offers its `beam` likeliest next ids (by logit, the first of
  // equal ones, as greedy decoding takes them), and the beam - F best of all the offers by total
  // log-probability are kept, F being the hypotheses finished so far (of equal totals the lower
  // id first, then the earlier hypothesis). A kept one that writes </s> is finished and its place
  // leaves the beam, so the search stops once `beam` hypotheses have finished or max_words has
  // ended the rest. The live hypotheses run through each step together, as the rows of one
  // decoder step. The translation is the finished hypothesis of the highest log p / lp(L), L its
  // words and </s>, lp GNMT's length penalty (translation_length_penalty), of equal scores the
  // first to finish: each word adds a negative log-probability, so the total alone would favour
  // the shortest outputs, and lp, which grows with L, offsets that. Its weights, scores and
  // log_probability (the total, not normalised) are that hypothesis's own.
  // Throws InvalidArgument on an empty or too long source, a max_words outside
  // [0, kMaxTranslationLength), a beam outside [1, kMaxBeam], or an id out of range. Forms D^T
  // (d_y, V) for the sentence's logits; FrozenTranslator keeps it from one sentence to the next.
  Translation translate(const std::vector<int>& source, int max_words, int beam = 1) const;

  void zero_grad();
  // The trainable parameters, in a fixed order (stable pointers into this model).
  std::vector<Parameter<T>*> parameters();
  const TranslatorConfig& config() const { return config_; }
  const MatrixT<T>& word_vectors() const { return *word_vectors_; }

 private:
  friend class FrozenTranslator<T>;
  Translator() = default;  // for from_weights(), which fills every member

  // Checks the config and the word vectors' shape, and names every parameter: both ways of making
  // a model start here, so that the names (which tests and tools look parameters up by) are
  // written once.
  void check_and_name();

  // What the rows of a decoder step read of the encoder: row b reads sentence j = sentence[b],
  // its states states[j]: h (n, 2 H_e) and keys[j]: h U_a + b_a (n, d_a) (attention model), or
  // its summary, row j of summary: [f_n ; b_1] (fixed vector).
  struct Encoded {
    const std::vector<MatrixT<T>>& states;
    const std::vector<LinearPass<T>>& keys;
    const MatrixT<T>& summary;
    const std::vector<int>& sentence;  // (B)
  };
  // One decoder step of B rows: c_t from s_{t-1}, then s_t = GRU_d(s_{t-1}, [D y_{t-1} ; c_t]).
  // s_prev: (B, H_d); previous: (B, d_y) D[y_{t-1}]; active: (B) flags, or empty for all; a row
  // that is not active keeps its state and attends to nothing (its c_t is zero in the attention
  // model) -> c_t: (B, 2 H_e), s_t: (B, H_d).
  TranslatorDecoderStep<T> decoder_step(MatrixT<T> s_prev, const MatrixT<T>& previous,
                                        const Encoded& encoded,
                                        std::vector<unsigned char> active) const;
  // The output layer for N rows at once: joined: (N, H_d + 2 H_e + d_y) rows [s_t ; c_t ;
  // D y_{t-1}] (after dropout in training), output_weights: D^T (d_y, V) -> logits (N, V) =
  // o D^T + b_out with o = tanh(joined W_o + b_o); the layers' passes go into linear and output.
  MatrixT<T> output_logits(MatrixT<T> joined, const MatrixT<T>& output_weights,
                           LinearPass<T>& linear, TanhPass<T>& output) const;
  // translate() with D^T given: output_weights (d_y, V).
  Translation translate_with(const std::vector<int>& source, int max_words, int beam,
                             const MatrixT<T>& output_weights) const;

  TranslatorConfig config_;
  std::shared_ptr<const MatrixT<T>> word_vectors_;  // (source_words, d_x) frozen, never null
  Parameter<T> unknown_;  // (1, d_x) the unknown English word's learned vector
  GruParameters<T> encoder_forward_, encoder_backward_, decoder_;
  Parameter<T> init_w_, init_b_;                    // (2 H_e, H_d), (1, H_d)
  Parameter<T> query_w_, key_w_, key_b_, score_v_;  // attention model only
  Parameter<T> target_embedding_;                   // D: (V, d_y)
  Parameter<T> output_w_, output_b_, logit_b_;      // (H_d + 2 H_e + d_y, d_y) ...
};

// A model that only translates, as the page's do: its weights no longer change, so D^T, which the
// logits of every decoding step read, is formed once when it is made rather than once a sentence.
// translate() gives the same numbers as the model's own.
template <typename T>
class FrozenTranslator {
 public:
  explicit FrozenTranslator(Translator<T> model);

  // As Translator::translate, and throws as it does.
  Translation translate(const std::vector<int>& source, int max_words, int beam = 1) const {
    return model_.translate_with(source, max_words, beam, output_weights_);
  }
  const Translator<T>& model() const { return model_; }

 private:
  Translator<T> model_;
  MatrixT<T> output_weights_;  // D^T: (d_y, V)
};

}  // namespace attn

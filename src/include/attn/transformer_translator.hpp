// A small encoder-decoder Transformer that translates English into German pieces (Vaswani et al.,
// 2017, with pre-layer-norm blocks, or post-layer-norm ones as the paper's), on the page's frozen
// word vectors, forward and backward. A
// template on the scalar (float for training, double for the gradient checks; instantiated in
// transformer_translator.cpp); conventions as in layers.hpp. docs/transformer.md draws it.
//
// For an English sentence x_1 .. x_n (ids into the page's word vectors, unknown = their count),
// padded to the batch's longest n_max, and its German pieces y_1 .. y_m:
//   e_j = X[x_j]                                      (d_x)      X frozen, but for a learned row
//                                                                for unknown words; 0 at padding
//   a_j = e_j W_src + b_src + P_j                     (d_model)  P sinusoidal (positional.hpp)
//   a = EncoderBlock_l(a, padding) for l < N_enc      (n_max, d_model) the padding as key padding
//   M = LayerNorm_enc(a)                              (n_max, d_model) the encoder's output
//   z_t = sqrt(d_model) D[y_{t-1}] + P_t              (d_model)  t = 0 .. m, y_{-1} = <s>;
//                                                                D: (V, d_model) the German pieces
//   z = CrossDecoderBlock_l(z, M, padding) for l < N_dec   (m + 1, d_model) causal self-attention,
//                                                          cross-attention over M, MLP
//   h = LayerNorm_dec(z)                              (m + 1, d_model)
//   p(y_t) = softmax(h_t D^T + b_out)                 (V)        the output tied to D
// with y_m = </s>. That is the pre-layer-norm model (NormPlace::pre, the default and the committed
// model's). A post-layer-norm model (NormPlace::post) has blocks whose norms sit on the sum of
// the stream and each sublayer (encoder_block.hpp, cross_decoder_block.hpp), and no final norm:
// its last blocks' outputs are already normalised, so M = a and h = z, as in PyTorch's
// nn.TransformerEncoder and nn.TransformerDecoder with norm_first=False and norm=None.
// D is scaled by sqrt(d_model) on the way in: its entries start with variance
// 1 / d_model, so that h D^T has logits of unit scale, and the inputs then have the scale of P.
// The loss is the mean over every German piece and </s> of the batch of the softmax
// cross-entropy, optionally label-smoothed (loss.hpp). The decoder reads each sentence at its own
// length m + 1: nothing is padded there, and its causal mask makes every row see only the rows
// before it.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "attn/cross_decoder_block.hpp"
#include "attn/encoder_block.hpp"
#include "attn/layer_norm.hpp"
#include "attn/layers.hpp"
#include "attn/translator.hpp"

namespace attn {

struct TransformerTranslatorConfig {
  int source_words = 0;    // rows of the word vectors X; id source_words is the unknown word
  int source_width = 100;  // d_x, their width
  int target_words = 0;    // V, German vocabulary with its four special ids
  int d_model = 192;       // width of both residual streams
  int heads = 4;           // per attention layer; must divide d_model
  int encoder_layers = 2;  // N_enc
  int decoder_layers = 2;  // N_dec
  int d_mlp = 768;         // hidden width of every block's MLP
  std::uint64_t seed = 1;  // initial weights
  NormPlace norm_place = NormPlace::pre;  // every block's; post has no final norms
};

// Throws InvalidArgument unless source_words >= 1, target_words > 4, every width is in [1, 4096],
// heads divides d_model, and the layers are in [1, 16].
void check_transformer_translator_config(const TransformerTranslatorConfig& config);

// The (rows, cols) of every parameter of a model of this config, in the order of
// TransformerTranslator::parameters(), worked out without building one. Throws as
// check_transformer_translator_config.
std::vector<std::pair<int, int>> transformer_translator_parameter_shapes(
    const TransformerTranslatorConfig& config);

// One sentence pair of a forward pass.
template <typename T>
struct TransformerPairPass {
  NormPlace norm_place = NormPlace::pre;
  std::vector<EncoderBlockPass<T>> encoder;       // per layer: (n_max, d_model)
  LayerNormPass<T> encoder_norm;                  // M: (n_max, d_model); unused post-LN
  KeyPadding padding;                             // (n_max) non-zero past the sentence's end
  std::vector<CrossDecoderBlockPass<T>> decoder;  // per layer: (m + 1, d_model)
  LayerNormPass<T> decoder_norm;                  // h: (m + 1, d_model); unused post-LN
  // M: the final norm's output (pre), or the last encoder block's (post).
  const MatrixT<T>& memory() const {
    return norm_place == NormPlace::pre ? encoder_norm.y : encoder.back().y();
  }
  // h: the final norm's output (pre), or the last decoder block's (post).
  const MatrixT<T>& output() const {
    return norm_place == NormPlace::pre ? decoder_norm.y : decoder.back().y();
  }
};

// What one forward pass computed that the backward pass needs, and what callers read.
template <typename T>
struct TransformerTranslatorPass {
  int batch = 0, source_steps = 0;    // B, n_max
  std::vector<int> source_ids;        // (B n_max) pair-major, -1 at padding
  std::vector<int> target_rows;       // (B + 1) pair b's decoder rows are [rows[b], rows[b + 1])
  LinearPass<T> source_input;         // (B n_max, d_model) e W_src + b_src; x = e (B n_max, d_x)
  MatrixT<T> source_mask;             // dropout's mask of the encoder's inputs a, or empty
  EmbeddingPass<T> target_embedding;  // (R, d_model) D[y_{t-1}] of every pair's rows, R rows
  MatrixT<T> target_mask;             // dropout's mask of the decoder's inputs z, or empty
  std::vector<TransformerPairPass<T>> pairs;  // (B)
  MatrixT<T> decoder_output;                  // (R, d_model) every pair's h, stacked
  std::vector<int> labels;                    // (R) y_t, </s> last for each pair
  MatrixT<T> d_logits;                        // (R, V) dL/dlogits
  T loss = 0;       // mean (smoothed) cross-entropy per German piece and </s>
  int counted = 0;  // pieces the loss counts (R)
};

// What the encoder does with a sentence of n English tokens (TransformerTranslator::translate):
// every layer's self-attention, and the residual stream each token carries through the layers,
// measured at every stage. Stage s = 0 is the encoder's input a; stage 2 l + 1 the stream after
// layer l's attention sublayer, stage 2 l + 2 after its feed-forward sublayer (l from 0).
// Sublayer k = s - 1 is the one that ends at stage s.
struct TransformerEncoderTrace {
  int layers = 0, heads = 0;
  // Every layer's and head's self-attention weights, (layers, heads, n, n) row-major: layer l's
  // head j's row i (token i's query over the n keys) at ((l heads + j) n + i) n.
  std::vector<float> weights;
  // (2 layers + 1, n) row-major, per stage and token: the stream's root mean square over its
  // d_model numbers, and its cosine with the token's input a (1 at stage 0).
  std::vector<float> stream_rms;
  std::vector<float> input_cosine;
  // (2 layers, n) row-major, per sublayer and token: the root mean square of what the sublayer
  // reads (its layer norm's output pre-LN, the stream itself post-LN) and of what it writes (its
  // output, before the residual sum).
  std::vector<float> read_rms;
  std::vector<float> write_rms;
};

// A translation the model wrote (TransformerTranslator::translate).
struct TransformerTranslation {
  // The German ids, the log-probability of them and </s>, and as weights (words + 1, n) the last
  // decoder layer's cross-attention averaged over its heads: row t over the English tokens for
  // the id written at step t (the last row: </s>). scores is (words + 1, 0): dot-product
  // attention has no additive scores to show.
  Translation translation;
  std::vector<float> step_log_probabilities;  // (words + 1) each id's and </s>'s, natural log
  // Every decoder layer's and head's cross-attention weights, (layers, heads, words + 1, n)
  // row-major: layer l's head j's row t at ((l heads + j) (words + 1) + t) n.
  std::vector<float> cross_weights;
  int layers = 0, heads = 0;
  TransformerEncoderTrace encoder;  // the English sentence inside the encoder
};

template <typename T>
class TransformerTranslator {
 public:
  // word_vectors: (source_words, source_width), frozen. Seeded initial weights, the same numbers
  // for float and double: W_src uniform with variance 1 / d_x divided by the RMS entry of X (the
  // encoder's inputs of unit scale), D uniform with variance 1 / d_model, each block's weights as
  // encoder_block_weights and cross_decoder_block_weights draw them with the projections into
  // the residual stream times 1 / sqrt(2 N_enc) (encoder) and 1 / sqrt(3 N_dec) (decoder); the
  // unknown word's row, biases 0, gains 1. Throws InvalidArgument as
  // check_transformer_translator_config does, or when the word vectors do not have the configured
  // shape or are all zero.
  TransformerTranslator(const TransformerTranslatorConfig& config, MatrixT<T> word_vectors);

  // A model of given (trained) weights, with no seeded weights drawn: values holds every
  // parameter in the order of parameters(), shaped as transformer_translator_parameter_shapes.
  // The word vectors are shared, not copied. Gradients are not allocated until backward() or
  // zero_grad() needs them. Throws InvalidArgument as the constructor does, or on values of the
  // wrong number or shape.
  static TransformerTranslator from_weights(const TransformerTranslatorConfig& config,
                                            std::shared_ptr<const MatrixT<T>> word_vectors,
                                            std::vector<MatrixT<T>> values);

  // Teacher-forced pass over a batch. With a dropout rate above 0 (training), the encoder's
  // inputs a (after P) and the decoder's inputs z (after P) each go through dropout_forward
  // (layers.hpp) with `rng`, in that order. label_smoothing in [0, 1) as loss.hpp's
  // softmax_cross_entropy_in_place takes it. Throws InvalidArgument on an empty batch, a sentence
  // of 0 or more than kMaxTranslationLength tokens (German: with </s>), an id out of range, a
  // dropout rate outside [0, 1) or above 0 without rng, or a smoothing outside [0, 1).
  TransformerTranslatorPass<T> forward(const TranslationBatch& batch, double dropout = 0,
                                       Rng* rng = nullptr, double label_smoothing = 0) const;

  // Adds dL/d(every parameter) for the pass's loss into the parameters' gradients (allocating
  // them first for a model made by from_weights()).
  void backward(const TransformerTranslatorPass<T>& pass);

  // source: (n) English ids, prefix: (m) German ids read after <s> -> logits (m + 1, V) of every
  // position, computed as forward() computes them for one pair (the whole decoder at once, no
  // cache). Throws as forward() does.
  MatrixT<T> logits(const std::vector<int>& source, const std::vector<int>& prefix) const;

  // Writes a translation one German id at a time, until </s> or max_words ids (after which the
  // next step can only end it), with translator.hpp's search (greedy for beam 1; a wider beam
  // ranks finished hypotheses by log p / lp(L); detail::beam_search, shared with Translator).
  // Each step runs one row per live hypothesis through the decoder: its self-attention reads the
  // keys and values of the positions before from a cache (PastKeysValues), and every
  // cross-attention the encoder's keys and values projected once a sentence. Throws
  // InvalidArgument on an empty or too long source, a max_words outside
  // [0, kMaxTranslationLength), a beam outside [1, kMaxBeam], or an id out of range.
  TransformerTranslation translate(const std::vector<int>& source, int max_words,
                                   int beam = 1) const;

  void zero_grad();
  // The trainable parameters, in a fixed order: unknown, W_src, b_src, each encoder block's
  // (EncoderBlockWeights), encoder_norm (pre only), D, each decoder block's
  // (CrossDecoderBlockWeights), decoder_norm (pre only), b_out. Stable pointers.
  std::vector<Parameter<T>*> parameters();
  const TransformerTranslatorConfig& config() const { return config_; }
  const MatrixT<T>& word_vectors() const { return *word_vectors_; }

 private:
  TransformerTranslator() = default;  // for from_weights(), which fills every member

  // Checks the config and the word vectors' shape, sizes the blocks and names every parameter:
  // "unknown", "source_w", "source_b", "encoder<l>.norm1.gain", ..., "encoder_norm.gain",
  // "target_embedding", "decoder<l>.norm1.gain", ..., "decoder_norm.bias", "logit_b" (no final
  // norms post-LN), and sets every block's norm_place. Both ways of making a model start here.
  void check_and_name();
  // The encoder of one sentence: a: (n_max, d_model) its inputs, padding: (n_max) -> the blocks'
  // and the final norm's (pre) passes into pair.
  void encode(MatrixT<T> a, TransformerPairPass<T>& pair) const;
  // source: (n) English ids -> the encoder's inputs a = X[x] W_src + b_src + P, (n, d_model).
  MatrixT<T> source_inputs(const std::vector<int>& source) const;
  // One sentence's encoder as forward() runs it without dropout, over pair's padding: source: (n)
  // English ids -> source_inputs(source) through encode().
  void encode_sentence(const std::vector<int>& source, TransformerPairPass<T>& pair) const;
  // The decoder of one sentence: z: (m + 1, d_model) its inputs, over pair's encoder output ->
  // the blocks' and the final norm's (pre) passes into pair.
  void decode(const MatrixT<T>& z, TransformerPairPass<T>& pair) const;

  TransformerTranslatorConfig config_;
  std::shared_ptr<const MatrixT<T>> word_vectors_;  // (source_words, d_x) frozen, never null
  MatrixT<T> positions_;              // (kMaxTranslationLength, d_model) P, sinusoidal, not trained
  Parameter<T> unknown_;              // (1, d_x) the unknown English word's learned vector
  Parameter<T> source_w_, source_b_;  // (d_x, d_model), (1, d_model)
  std::vector<EncoderBlockWeights<T>> encoder_;
  LayerNormWeights<T> encoder_norm_;  // empty post-LN
  Parameter<T> target_embedding_;     // D: (V, d_model)
  std::vector<CrossDecoderBlockWeights<T>> decoder_;
  LayerNormWeights<T> decoder_norm_;  // empty post-LN
  Parameter<T> logit_b_;              // (1, V)
};

}  // namespace attn

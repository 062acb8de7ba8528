#include "attn/transformer_translator.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "attn/loss.hpp"
#include "attn/positional.hpp"
#include "attn/random.hpp"
#include "beam_search.hpp"
#include "checks.hpp"
#include "dense_linear.hpp"
#include "initial_weights.hpp"
#include "translation_checks.hpp"

namespace attn {
namespace {

constexpr const char* kWhere = "transformer translator";

// The seed tags of derive_seed(config.seed, tag): one per parameter or block, so that a change of
// the number of layers moves no other draw.
constexpr std::uint64_t kSourceTag = 1, kTargetTag = 2, kEncoderTag = 100, kDecoderTag = 200;

// Whether each stack ends on a layer norm of its own: a pre-LN stack ends on a sum that nothing
// has normalised, a post-LN one on its last sublayer's norm.
bool has_final_norms(const TransformerTranslatorConfig& c) {
  return c.norm_place == NormPlace::pre;
}

// x: (n, d) -> each row's root mean square, appended to `to` (n)
template <typename T>
void append_row_rms(const MatrixT<T>& x, std::vector<float>& to) {
  const double d = static_cast<double>(x.cols());
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    to.push_back(static_cast<float>(std::sqrt(x.row(i).squaredNorm() / d)));
  }
}

// x, a: (n, d) -> each row of x's cosine with a's row, 0 where either is all zero, appended (n)
template <typename T>
void append_row_cosines(const MatrixT<T>& x, const MatrixT<T>& a, std::vector<float>& to) {
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    const double norms = static_cast<double>(x.row(i).norm()) * a.row(i).norm();
    to.push_back(norms > 0 ? static_cast<float>(x.row(i).dot(a.row(i)) / norms) : 0.0f);
  }
}

// a: (n, d_model) the encoder's inputs, pair: the encoder's pass over them -> the trace
template <typename T>
TransformerEncoderTrace trace_encoder(const MatrixT<T>& a, const TransformerPairPass<T>& pair,
                                      int heads) {
  TransformerEncoderTrace trace;
  trace.layers = static_cast<int>(pair.encoder.size());
  trace.heads = heads;
  append_row_rms(a, trace.stream_rms);
  append_row_cosines(a, a, trace.input_cosine);
  const MatrixT<T>* stream = &a;
  for (const EncoderBlockPass<T>& block : pair.encoder) {
    for (int j = 0; j < heads; ++j) {
      const MatrixT<T>& w = block.weights(j);
      for (Eigen::Index i = 0; i < w.rows(); ++i) {
        for (Eigen::Index k = 0; k < w.cols(); ++k) {
          trace.weights.push_back(static_cast<float>(w(i, k)));
        }
      }
    }
    const auto sublayer = [&](const LayerNormPass<T>& norm, const MatrixT<T>& output,
                              const MatrixT<T>& after) {
      append_row_rms(pair.norm_place == NormPlace::pre ? norm.y : *stream, trace.read_rms);
      append_row_rms(output, trace.write_rms);
      append_row_rms(after, trace.stream_rms);
      append_row_cosines(after, a, trace.input_cosine);
      stream = &after;
    };
    sublayer(block.self_attention.norm, block.self_attention.attention.output.y,
             block.self_attention.y);
    sublayer(block.mlp.norm, block.mlp.mlp.output.y, block.mlp.y);
  }
  return trace;
}

}  // namespace

void check_transformer_translator_config(const TransformerTranslatorConfig& c) {
  detail::check_range(kWhere, "source_words", c.source_words, 1, 1 << 24);
  detail::check_range(kWhere, "source_width", c.source_width, 1, 4096);
  detail::check_range(kWhere, "target_words", c.target_words, kTargetUnknown + 2, 1 << 20);
  detail::check_range(kWhere, "d_model", c.d_model, 1, 4096);
  detail::check_range(kWhere, "heads", c.heads, 1, c.d_model);
  detail::check_range(kWhere, "encoder_layers", c.encoder_layers, 1, 16);
  detail::check_range(kWhere, "decoder_layers", c.decoder_layers, 1, 16);
  detail::check_range(kWhere, "d_mlp", c.d_mlp, 1, 16384);
  if (c.d_model % c.heads != 0) {
    detail::fail(kWhere, "heads (" + std::to_string(c.heads) + ") must divide d_model (" +
                             std::to_string(c.d_model) + ")");
  }
}

std::vector<std::pair<int, int>> transformer_translator_parameter_shapes(
    const TransformerTranslatorConfig& c) {
  check_transformer_translator_config(c);
  const int d = c.d_model;
  const std::pair<int, int> row{1, d}, square{d, d};
  const auto attention = [&](std::vector<std::pair<int, int>>& shapes) {
    for (int i = 0; i < 4; ++i) shapes.insert(shapes.end(), {square, row});
  };
  const auto mlp = [&](std::vector<std::pair<int, int>>& shapes) {
    shapes.insert(shapes.end(), {{d, c.d_mlp}, {1, c.d_mlp}, {c.d_mlp, d}, row});
  };
  std::vector<std::pair<int, int>> shapes{{1, c.source_width}, {c.source_width, d}, row};
  for (int l = 0; l < c.encoder_layers; ++l) {
    shapes.insert(shapes.end(), {row, row});  // norm1
    attention(shapes);
    shapes.insert(shapes.end(), {row, row});  // norm2
    mlp(shapes);
  }
  const bool final_norms = has_final_norms(c);
  if (final_norms) shapes.insert(shapes.end(), {row, row});  // encoder_norm
  shapes.push_back({c.target_words, d});                     // D
  for (int l = 0; l < c.decoder_layers; ++l) {
    shapes.insert(shapes.end(), {row, row});  // norm1
    attention(shapes);                        // self-attention
    shapes.insert(shapes.end(), {row, row});  // norm2
    attention(shapes);                        // cross-attention
    shapes.insert(shapes.end(), {row, row});  // norm3
    mlp(shapes);
  }
  if (final_norms) shapes.insert(shapes.end(), {row, row});  // decoder_norm
  shapes.push_back({1, c.target_words});                     // b_out
  return shapes;
}

template <typename T>
void TransformerTranslator<T>::check_and_name() {
  // 1. The config and the word vectors.
  check_transformer_translator_config(config_);
  check_frozen_word_vectors(word_vectors_.get(), config_.source_words, config_.source_width,
                            kWhere);
  // 2. The blocks, as many as the config says, and the fixed positions (kMaxTranslationLength,
  //    d_model): an English sentence and the German with <s> are at most that long.
  encoder_.resize(static_cast<size_t>(config_.encoder_layers));
  decoder_.resize(static_cast<size_t>(config_.decoder_layers));
  for (auto& block : encoder_) {
    block.attention.heads = config_.heads;
    block.norm_place = config_.norm_place;
  }
  for (auto& block : decoder_) {
    block.self_attention.heads = config_.heads;
    block.cross_attention.heads = config_.heads;
    block.norm_place = config_.norm_place;
  }
  positions_ = positional_encoding(kMaxTranslationLength, config_.d_model).template cast<T>();
  // 3. The names, in the order of parameters().
  unknown_.name = "unknown";
  source_w_.name = "source_w";
  source_b_.name = "source_b";
  for (size_t l = 0; l < encoder_.size(); ++l) encoder_[l].name("encoder" + std::to_string(l));
  encoder_norm_.name("encoder_norm");
  target_embedding_.name = "target_embedding";
  for (size_t l = 0; l < decoder_.size(); ++l) decoder_[l].name("decoder" + std::to_string(l));
  decoder_norm_.name("decoder_norm");
  logit_b_.name = "logit_b";
}

template <typename T>
TransformerTranslator<T>::TransformerTranslator(const TransformerTranslatorConfig& config,
                                                MatrixT<T> word_vectors)
    : config_(config), word_vectors_(std::make_shared<const MatrixT<T>>(std::move(word_vectors))) {
  check_and_name();
  const int d = config_.d_model, d_x = config_.source_width;
  // The RMS entry of X scales W_src, so that the encoder's inputs have entries of unit scale. One
  // sum in double, in a fixed order: the weights a seed gives depend on its bits.
  const double x_rms = std::sqrt(word_vectors_->template cast<double>().squaredNorm() /
                                 static_cast<double>(word_vectors_->size()));
  if (!(x_rms > 0) || !std::isfinite(x_rms)) {
    detail::fail(kWhere, "the word vectors must be finite and not all zero");
  }
  const auto seed = [&](std::uint64_t tag) { return derive_seed(config_.seed, tag); };
  unknown_.value = MatrixT<T>::Zero(1, d_x);
  source_w_.value = detail::fan_in_uniform<T>(d_x, d, seed(kSourceTag), 1.0 / x_rms);
  source_b_.value = MatrixT<T>::Zero(1, d);
  const double encoder_scale = 1.0 / std::sqrt(2.0 * config_.encoder_layers);
  for (size_t l = 0; l < encoder_.size(); ++l) {
    encoder_[l] =
        encoder_block_weights<T>(d, config_.heads, config_.d_mlp, seed(kEncoderTag + l),
                                 encoder_scale, "encoder" + std::to_string(l), config_.norm_place);
  }
  // The final norms draw nothing: a seed gives both places the same numbers for the rest.
  const bool final_norms = has_final_norms(config_);
  if (final_norms) encoder_norm_ = layer_norm_weights<T>(d, "encoder_norm");
  // Variance 1 / d_model: uniform in +-sqrt(3 / d_model).
  target_embedding_.value =
      detail::uniform_weight<T>(config_.target_words, d, std::sqrt(3.0 / d), seed(kTargetTag));
  const double decoder_scale = 1.0 / std::sqrt(3.0 * config_.decoder_layers);
  for (size_t l = 0; l < decoder_.size(); ++l) {
    decoder_[l] = cross_decoder_block_weights<T>(d, config_.heads, config_.d_mlp,
                                                 seed(kDecoderTag + l), decoder_scale,
                                                 "decoder" + std::to_string(l), config_.norm_place);
  }
  if (final_norms) decoder_norm_ = layer_norm_weights<T>(d, "decoder_norm");
  logit_b_.value = MatrixT<T>::Zero(1, config_.target_words);
  zero_grad();
}

template <typename T>
TransformerTranslator<T> TransformerTranslator<T>::from_weights(
    const TransformerTranslatorConfig& config, std::shared_ptr<const MatrixT<T>> word_vectors,
    std::vector<MatrixT<T>> values) {
  TransformerTranslator model;
  model.config_ = config;
  model.word_vectors_ = std::move(word_vectors);
  model.check_and_name();
  set_parameter_values(model.parameters(), transformer_translator_parameter_shapes(config),
                       std::move(values), kWhere);
  return model;
}

template <typename T>
std::vector<Parameter<T>*> TransformerTranslator<T>::parameters() {
  std::vector<Parameter<T>*> all{&unknown_, &source_w_, &source_b_};
  for (EncoderBlockWeights<T>& block : encoder_) {
    for (Parameter<T>* p : block.parameters()) all.push_back(p);
  }
  const bool final_norms = has_final_norms(config_);
  if (final_norms) all.insert(all.end(), {&encoder_norm_.gain, &encoder_norm_.bias});
  all.push_back(&target_embedding_);
  for (CrossDecoderBlockWeights<T>& block : decoder_) {
    for (Parameter<T>* p : block.parameters()) all.push_back(p);
  }
  if (final_norms) all.insert(all.end(), {&decoder_norm_.gain, &decoder_norm_.bias});
  all.push_back(&logit_b_);
  return all;
}

template <typename T>
void TransformerTranslator<T>::zero_grad() {
  for (Parameter<T>* p : parameters()) p->zero_grad();
}

// a: (n_max, d_model) -> M: (n_max, d_model), pair.memory()
template <typename T>
void TransformerTranslator<T>::encode(MatrixT<T> a, TransformerPairPass<T>& pair) const {
  pair.norm_place = config_.norm_place;
  pair.encoder.clear();
  pair.encoder.reserve(encoder_.size());
  const MatrixT<T>* x = &a;
  for (const EncoderBlockWeights<T>& block : encoder_) {
    pair.encoder.push_back(encoder_block_forward(*x, block, pair.padding));
    x = &pair.encoder.back().y();
  }
  if (has_final_norms(config_)) pair.encoder_norm = layer_norm_forward(*x, encoder_norm_);
}

// source: (n) -> a: (n, d_model)
template <typename T>
MatrixT<T> TransformerTranslator<T>::source_inputs(const std::vector<int>& source) const {
  MatrixT<T> a =
      detail::dense_linear_forward(frozen_embedding_forward(source, *word_vectors_, unknown_),
                                   source_w_, &source_b_)
          .y;
  a += positions_.topRows(static_cast<Eigen::Index>(source.size()));
  return a;
}

// source: (n) -> M: (n, d_model), pair.memory()
template <typename T>
void TransformerTranslator<T>::encode_sentence(const std::vector<int>& source,
                                               TransformerPairPass<T>& pair) const {
  encode(source_inputs(source), pair);
}

// z: (m + 1, d_model) -> h: (m + 1, d_model), pair.output()
template <typename T>
void TransformerTranslator<T>::decode(const MatrixT<T>& z, TransformerPairPass<T>& pair) const {
  pair.decoder.clear();
  pair.decoder.reserve(decoder_.size());
  const MatrixT<T>* x = &z;
  for (const CrossDecoderBlockWeights<T>& block : decoder_) {
    pair.decoder.push_back(cross_decoder_block_forward(*x, pair.memory(), block, pair.padding));
    x = &pair.decoder.back().y();
  }
  if (has_final_norms(config_)) pair.decoder_norm = layer_norm_forward(*x, decoder_norm_);
}

// batch: B pairs -> the loss, and dL/dlogits (R, V) for R = sum of (m + 1) over the pairs
template <typename T>
TransformerTranslatorPass<T> TransformerTranslator<T>::forward(const TranslationBatch& batch,
                                                               double dropout, Rng* rng,
                                                               double label_smoothing) const {
  const int n_pairs = static_cast<int>(batch.sources.size());
  if (!(dropout >= 0 && dropout < 1) || (dropout > 0 && !rng)) {
    detail::fail(kWhere, "dropout needs a rate in [0, 1), and a generator when it is above 0");
  }
  if (!(label_smoothing >= 0 && label_smoothing < 1)) {
    detail::fail(kWhere, "label smoothing must be in [0, 1)");
  }
  detail::check_translation_batch(kWhere, batch, config_.source_words, config_.target_words);
  TransformerTranslatorPass<T> pass;
  pass.batch = n_pairs;
  pass.target_rows.push_back(0);
  for (int b = 0; b < n_pairs; ++b) {
    pass.source_steps = std::max(pass.source_steps, static_cast<int>(batch.sources[b].size()));
    pass.target_rows.push_back(pass.target_rows.back() + static_cast<int>(batch.targets[b].size()) +
                               1);
  }
  const Eigen::Index n_max = pass.source_steps, d = config_.d_model;
  const auto drop = [&](MatrixT<T>& x) {
    return dropout > 0 ? dropout_forward(x, dropout, *rng) : MatrixT<T>();
  };

  // 1. The encoder's inputs of every pair, pair-major, padded to n_max: a = X[x] W_src + b_src + P.
  pass.source_ids.assign(static_cast<size_t>(n_pairs * n_max), -1);
  for (int b = 0; b < n_pairs; ++b) {
    std::copy(batch.sources[b].begin(), batch.sources[b].end(),
              pass.source_ids.begin() + static_cast<long>(b * n_max));
  }
  pass.source_input = detail::dense_linear_forward(
      frozen_embedding_forward(pass.source_ids, *word_vectors_, unknown_), source_w_, &source_b_);
  MatrixT<T> a = pass.source_input.y;
  for (int b = 0; b < n_pairs; ++b) a.middleRows(b * n_max, n_max) += positions_.topRows(n_max);
  pass.source_mask = drop(a);

  // 2. The decoder's inputs of every pair at its own length: z = sqrt(d_model) D[y_{t-1}] + P, y
  //    starting from <s>; the labels are y_t, then </s>.
  const int rows = pass.target_rows.back();
  std::vector<int> inputs;
  inputs.reserve(static_cast<size_t>(rows));
  pass.labels.reserve(static_cast<size_t>(rows));
  for (int b = 0; b < n_pairs; ++b) {
    inputs.push_back(kTargetStart);
    inputs.insert(inputs.end(), batch.targets[b].begin(), batch.targets[b].end());
    pass.labels.insert(pass.labels.end(), batch.targets[b].begin(), batch.targets[b].end());
    pass.labels.push_back(kTargetEnd);
  }
  pass.target_embedding = embedding_forward(inputs, target_embedding_, -1);
  MatrixT<T> z = pass.target_embedding.y * static_cast<T>(std::sqrt(static_cast<double>(d)));
  for (int b = 0; b < n_pairs; ++b) {
    const int first = pass.target_rows[b], length = pass.target_rows[b + 1] - first;
    z.middleRows(first, length) += positions_.topRows(length);
  }
  pass.target_mask = drop(z);

  // 3. Each pair through the encoder (its padding as key padding) and the decoder, in order.
  pass.pairs.resize(static_cast<size_t>(n_pairs));
  pass.decoder_output.resize(rows, d);
  for (int b = 0; b < n_pairs; ++b) {
    TransformerPairPass<T>& pair = pass.pairs[static_cast<size_t>(b)];
    pair.padding.assign(static_cast<size_t>(n_max), 0);
    for (Eigen::Index j = static_cast<Eigen::Index>(batch.sources[b].size()); j < n_max; ++j) {
      pair.padding[static_cast<size_t>(j)] = 1;
    }
    encode(a.middleRows(b * n_max, n_max), pair);
    const int first = pass.target_rows[b], length = pass.target_rows[b + 1] - first;
    decode(z.middleRows(first, length), pair);
    pass.decoder_output.middleRows(first, length) = pair.output();
  }

  // 4. The tied logits h D^T + b_out of every row at once, (R, V), and the loss, which turns them
  //    into dL/dlogits in place.
  MatrixT<T> logits = detail::times_transposed(pass.decoder_output, target_embedding_.value);
  logits.rowwise() += logit_b_.value.row(0);
  const T total = softmax_cross_entropy_in_place(logits, pass.labels, T(1), &pass.counted,
                                                 static_cast<T>(label_smoothing));
  pass.loss = total / static_cast<T>(pass.counted);
  pass.d_logits = std::move(logits);
  return pass;
}

// pass.d_logits: (R, V) -> every parameter's gradient, added
template <typename T>
void TransformerTranslator<T>::backward(const TransformerTranslatorPass<T>& pass) {
  // A model made by from_weights() has no gradients until now.
  for (Parameter<T>* p : parameters()) {
    if (p->grad.rows() != p->value.rows() || p->grad.cols() != p->value.cols()) p->zero_grad();
  }
  const Eigen::Index n_max = pass.source_steps, d = config_.d_model;
  // 4. The tied output: D gets the logits' share here and the inputs' share below.
  logit_b_.grad += pass.d_logits.colwise().sum();
  const MatrixT<T> dh = detail::times(pass.d_logits, target_embedding_.value);  // (R, d_model)
  detail::add_transposed_times(target_embedding_.grad, pass.d_logits, pass.decoder_output);

  // 3. Each pair back through its decoder, then its encoder, in order; the decoder's blocks all
  //    read the encoder's output, so its gradient is their sum.
  //    Post-LN has no final norms to go back through.
  const bool final_norms = has_final_norms(config_);
  MatrixT<T> dz(dh.rows(), d), da(static_cast<Eigen::Index>(pass.batch) * n_max, d);
  for (int b = 0; b < pass.batch; ++b) {
    const TransformerPairPass<T>& pair = pass.pairs[static_cast<size_t>(b)];
    const int first = pass.target_rows[b], length = pass.target_rows[b + 1] - first;
    MatrixT<T> dx = dh.middleRows(first, length);
    if (final_norms) dx = layer_norm_backward(pair.decoder_norm, dx, decoder_norm_);
    MatrixT<T> d_memory = MatrixT<T>::Zero(n_max, d);
    for (size_t l = decoder_.size(); l-- > 0;) {
      CrossDecoderBlockGradients<T> g =
          cross_decoder_block_backward(pair.decoder[l], dx, decoder_[l]);
      dx = std::move(g.dx);
      d_memory += g.d_encoder_output;
    }
    dz.middleRows(first, length) = dx;
    MatrixT<T> dy =
        final_norms ? layer_norm_backward(pair.encoder_norm, d_memory, encoder_norm_) : d_memory;
    for (size_t l = encoder_.size(); l-- > 0;) {
      dy = encoder_block_backward(pair.encoder[l], dy, encoder_[l]);
    }
    da.middleRows(b * n_max, n_max) = dy;
  }

  // 2. The German inputs: z = sqrt(d_model) D[y] + P.
  dropout_backward(pass.target_mask, dz);
  dz *= static_cast<T>(std::sqrt(static_cast<double>(d)));
  embedding_backward(pass.target_embedding, dz, target_embedding_, -1);

  // 1. The English inputs: a = X[x] W_src + b_src + P, and the learned unknown word's row (the
  //    word vectors are frozen).
  dropout_backward(pass.source_mask, da);
  const MatrixT<T> de = detail::dense_linear_backward(pass.source_input, da, source_w_, &source_b_);
  frozen_embedding_backward(pass.source_ids, de, *word_vectors_, unknown_);
}

// source: (n), prefix: (m) -> (m + 1, V)
template <typename T>
MatrixT<T> TransformerTranslator<T>::logits(const std::vector<int>& source,
                                            const std::vector<int>& prefix) const {
  detail::check_sentence(kWhere, "the sentence", source, 1, kMaxTranslationLength, 0,
                         config_.source_words);
  detail::check_sentence(kWhere, "the prefix", prefix, 0, kMaxTranslationLength - 1, kTargetEnd + 1,
                         config_.target_words - 1);
  const auto n = static_cast<Eigen::Index>(source.size());
  TransformerPairPass<T> pair;
  pair.padding.assign(static_cast<size_t>(n), 0);
  encode_sentence(source, pair);
  std::vector<int> inputs{kTargetStart};
  inputs.insert(inputs.end(), prefix.begin(), prefix.end());
  const auto m = static_cast<Eigen::Index>(inputs.size());
  MatrixT<T> z = embedding_forward(inputs, target_embedding_, -1).y *
                 static_cast<T>(std::sqrt(static_cast<double>(config_.d_model)));
  z += positions_.topRows(m);
  decode(z, pair);
  MatrixT<T> out = detail::times_transposed(pair.output(), target_embedding_.value);
  out.rowwise() += logit_b_.value.row(0);
  return out;
}

// source: (n) -> the chosen hypothesis's ids, and per step its log-probability and every layer's
// and head's cross-attention weights over the n English tokens.
template <typename T>
TransformerTranslation TransformerTranslator<T>::translate(const std::vector<int>& source,
                                                           int max_words, int beam) const {
  detail::check_translate_request(kWhere, source, config_.source_words, max_words, beam);
  const auto n = static_cast<Eigen::Index>(source.size());
  const Eigen::Index d = config_.d_model;
  const int layers = config_.decoder_layers, heads = config_.heads;
  const T input_scale = static_cast<T>(std::sqrt(static_cast<double>(d)));

  // 1. The encoder as in forward, for one sentence (no padding), and every decoder layer's
  //    cross-attention keys and values of its output, projected once.
  TransformerPairPass<T> pair;
  const MatrixT<T> a = source_inputs(source);
  encode(a, pair);
  const KeyPadding no_padding;
  std::vector<PastKeysValues<T>> memory;
  for (const CrossDecoderBlockWeights<T>& block : decoder_) {
    memory.push_back(cross_attention_keys_values(pair.memory(), block.cross_attention));
  }

  // 2. The search (beam_search.hpp). A live hypothesis is its self-attention cache: per layer the
  //    keys and values of its positions so far, (t, d_model) each. Step t runs each one's newest
  //    id at position t, one row, through every layer.
  std::vector<std::vector<PastKeysValues<T>>> cache(
      1, std::vector<PastKeysValues<T>>(static_cast<size_t>(layers)));
  for (PastKeysValues<T>& past : cache[0]) {
    past.keys.resize(0, d);
    past.values.resize(0, d);
  }
  // Per step: each live row's cross-attention weights, (live, layers heads n).
  std::vector<MatrixT<T>> step_weights;
  const auto step = [&](int t, const std::vector<int>& rows, const std::vector<int>& ids) {
    const Eigen::Index live = t == 0 ? 1 : static_cast<Eigen::Index>(rows.size());
    std::vector<std::vector<PastKeysValues<T>>> next(static_cast<size_t>(live));
    MatrixT<T> h(live, d), weights(live, static_cast<Eigen::Index>(layers) * heads * n);
    for (Eigen::Index i = 0; i < live; ++i) {
      const auto at = static_cast<size_t>(i);
      const int id = t == 0 ? kTargetStart : ids[at];
      const std::vector<PastKeysValues<T>>& past =
          cache[t == 0 ? 0 : static_cast<size_t>(rows[at])];
      // z_t = sqrt(d_model) D[y_{t-1}] + P_t: (1, d_model)
      MatrixT<T> x = target_embedding_.value.row(id) * input_scale + positions_.row(t);
      next[at].resize(static_cast<size_t>(layers));
      for (int l = 0; l < layers; ++l) {
        const CrossDecoderBlockWeights<T>& block = decoder_[static_cast<size_t>(l)];
        const auto ll = static_cast<size_t>(l);
        // Causal self-attention of the new row over the positions before and itself.
        AttentionSublayerPass<T> self = self_attention_sublayer_forward(
            x, block.norm1, block.self_attention, causal_mask(), block.norm_place,
            OutputRows::every_position, &past[ll]);
        PastKeysValues<T>& grown = next[at][ll];
        grown.keys.resize(t + 1, d);
        grown.values.resize(t + 1, d);
        grown.keys.topRows(t) = past[ll].keys;
        grown.values.topRows(t) = past[ll].values;
        grown.keys.row(t) = self.attention.key.y.row(0);
        grown.values.row(t) = self.attention.value.y.row(0);
        AttentionSublayerPass<T> cross = cross_attention_sublayer_forward(
            self.y, MatrixT<T>(), block.norm2, block.cross_attention, no_padding, block.norm_place,
            &memory[ll]);
        for (int j = 0; j < heads; ++j) {
          weights.block(i, (static_cast<Eigen::Index>(l) * heads + j) * n, 1, n) =
              cross.attention.weights(j);
        }
        x = mlp_sublayer_forward(cross.y, block.norm3, block.mlp, block.norm_place).y;
      }
      h.row(i) = has_final_norms(config_) ? layer_norm_forward(x, decoder_norm_).y : x;
    }
    cache = std::move(next);
    step_weights.push_back(std::move(weights));
    // The tied logits of every live row: (live, V).
    MatrixT<T> out = detail::times_transposed(h, target_embedding_.value);
    out.rowwise() += logit_b_.value.row(0);
    return out;
  };
  const detail::BeamResult chosen =
      detail::beam_search<T>(max_words, beam, config_.target_words, step);

  // 3. The chosen hypothesis: its ids, its steps' log-probabilities, and its rows' weights.
  const auto steps = static_cast<Eigen::Index>(chosen.rows.size());
  TransformerTranslation out;
  out.layers = layers;
  out.heads = heads;
  out.encoder = trace_encoder(a, pair, heads);
  out.translation.words = chosen.words;
  out.translation.log_probability = static_cast<float>(chosen.log_probability);
  out.translation.scores.resize(steps, 0);
  out.translation.weights = Matrix::Zero(steps, n);
  out.cross_weights.assign(static_cast<size_t>(layers * heads * steps * n), 0.0f);
  for (Eigen::Index t = 0; t < steps; ++t) {
    out.step_log_probabilities.push_back(
        static_cast<float>(chosen.step_log_probability[static_cast<size_t>(t)]));
    const MatrixT<T>& w = step_weights[static_cast<size_t>(t)];
    const Eigen::Index row = chosen.rows[static_cast<size_t>(t)];
    for (int l = 0; l < layers; ++l) {
      for (int j = 0; j < heads; ++j) {
        const Eigen::Index from = (static_cast<Eigen::Index>(l) * heads + j) * n;
        float* to = out.cross_weights.data() + ((l * heads + j) * steps + t) * n;
        for (Eigen::Index k = 0; k < n; ++k) to[k] = static_cast<float>(w(row, from + k));
      }
    }
    // The last layer's heads, averaged in double and in head order.
    for (Eigen::Index k = 0; k < n; ++k) {
      double sum = 0;
      for (int j = 0; j < heads; ++j) {
        sum += static_cast<double>(
            w(row, ((static_cast<Eigen::Index>(layers) - 1) * heads + j) * n + k));
      }
      out.translation.weights(t, k) = static_cast<float>(sum / heads);
    }
  }
  return out;
}

template class TransformerTranslator<float>;
template class TransformerTranslator<double>;

}  // namespace attn

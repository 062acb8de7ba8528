#include "attn/translator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "attn/loss.hpp"
#include "attn/random.hpp"
#include "beam_search.hpp"
#include "checks.hpp"
#include "initial_weights.hpp"
#include "ordered_math.hpp"
#include "translation_checks.hpp"

namespace attn {
namespace {

constexpr const char* kWhere = "translator";

void check_width(const char* name, int value) {
  if (value < 1 || value > 4096) {
    detail::fail(kWhere,
                 std::string(name) + " must be between 1 and 4096, got " + std::to_string(value));
  }
}

// [a ; b] side by side: (n, p) and (n, q) -> (n, p + q).
template <typename T>
MatrixT<T> beside(const MatrixT<T>& a, const MatrixT<T>& b) {
  MatrixT<T> out(a.rows(), a.cols() + b.cols());
  out << a, b;
  return out;
}

// The output layer's input [s_t ; c_t ; D y_{t-1}] of a step's B rows, written into rows:
// (B, H_d + 2 H_e + d_y); previous: (B, d_y) D y_{t-1}.
template <typename T, typename Rows, typename Previous>
void write_output_input(Rows&& rows, const TranslatorDecoderStep<T>& step,
                        const Previous& previous) {
  const Eigen::Index h_d = step.cell.h.cols(), c = step.context.cols();
  rows.leftCols(h_d) = step.cell.h;
  rows.middleCols(h_d, c) = step.context;
  rows.rightCols(previous.cols()) = previous;
}

}  // namespace

const char* bridge_name(Bridge bridge) {
  return bridge == Bridge::attention ? "attention" : "fixed-vector";
}

void check_translator_config(const TranslatorConfig& c) {
  check_width("source_width", c.source_width);
  check_width("target_width", c.target_width);
  check_width("encoder_state", c.encoder_state);
  check_width("decoder_state", c.decoder_state);
  check_width("attention", c.attention);
  if (c.source_words < 1 || c.source_words > (1 << 24)) {
    detail::fail(kWhere,
                 "source_words must be between 1 and 2^24, got " + std::to_string(c.source_words));
  }
  if (c.target_words <= kTargetUnknown + 1 || c.target_words > (1 << 20)) {
    detail::fail(kWhere,
                 "target_words must be between 5 and 2^20 (four special ids and at "
                 "least one word), got " +
                     std::to_string(c.target_words));
  }
}

double translation_length_penalty(int length) {
  if (length < 1 || length > kMaxTranslationLength) {
    detail::fail(kWhere, "a translation's length must be between 1 and " +
                             std::to_string(kMaxTranslationLength) + " tokens, got " +
                             std::to_string(length));
  }
  // ((5 + L) / 6)^0.6 = 1 / e^(-0.6 log((5 + L) / 6)): the portable exp takes x <= 0.
  return 1.0 / detail::portable_exp(-0.6 * portable_log((5.0 + length) / 6.0));
}

std::vector<std::pair<int, int>> translator_parameter_shapes(const TranslatorConfig& c) {
  check_translator_config(c);
  const int gates_e = 3 * c.encoder_state, gates_d = 3 * c.decoder_state;
  std::vector<std::pair<int, int>> shapes{{1, c.source_width}};
  for (int direction = 0; direction < 2; ++direction) {
    shapes.insert(
        shapes.end(),
        {{c.source_width, gates_e}, {1, gates_e}, {c.encoder_state, gates_e}, {1, gates_e}});
  }
  shapes.insert(shapes.end(),
                {{c.target_width + 2 * c.encoder_state, gates_d},
                 {1, gates_d},
                 {c.decoder_state, gates_d},
                 {1, gates_d},
                 {2 * c.encoder_state, c.decoder_state},
                 {1, c.decoder_state},
                 {c.target_words, c.target_width},
                 {c.decoder_state + 2 * c.encoder_state + c.target_width, c.target_width},
                 {1, c.target_width},
                 {1, c.target_words}});
  if (c.bridge == Bridge::attention) {
    shapes.insert(shapes.end(), {{c.decoder_state, c.attention},
                                 {2 * c.encoder_state, c.attention},
                                 {1, c.attention},
                                 {1, c.attention}});
  }
  return shapes;
}

template <typename T>
void Translator<T>::check_and_name() {
  // 1. The config and the word vectors.
  check_translator_config(config_);
  check_frozen_word_vectors(word_vectors_.get(), config_.source_words, config_.source_width,
                            kWhere);
  // 2. The names, in the order of parameters().
  unknown_.name = "unknown";
  const std::pair<GruParameters<T>*, const char*> grus[] = {
      {&encoder_forward_, "encoder_forward"},
      {&encoder_backward_, "encoder_backward"},
      {&decoder_, "decoder"}};
  for (const auto& [g, name] : grus) {
    g->w_x.name = std::string(name) + ".w_x";
    g->b_x.name = std::string(name) + ".b_x";
    g->w_h.name = std::string(name) + ".w_h";
    g->b_h.name = std::string(name) + ".b_h";
  }
  init_w_.name = "init_w";
  init_b_.name = "init_b";
  target_embedding_.name = "target_embedding";
  output_w_.name = "output_w";
  output_b_.name = "output_b";
  logit_b_.name = "logit_b";
  query_w_.name = "query_w";
  key_w_.name = "key_w";
  key_b_.name = "key_b";
  score_v_.name = "score_v";
}

template <typename T>
Translator<T>::Translator(const TranslatorConfig& config, MatrixT<T> word_vectors)
    : config_(config), word_vectors_(std::make_shared<const MatrixT<T>>(std::move(word_vectors))) {
  const int d_x = config_.source_width, d_y = config_.target_width, h_e = config_.encoder_state,
            h_d = config_.decoder_state, d_a = config_.attention;
  check_translator_config(config_);
  // Every parameter draws from its own seed, derived from the model's by a fixed tag, so that the
  // two models share every weight they have in common.
  const auto seed = [&](std::uint64_t tag) { return derive_seed(config_.seed, tag); };
  unknown_.value = MatrixT<T>::Zero(1, d_x);
  encoder_forward_ = make_gru_parameters<T>("encoder_forward", d_x, h_e, seed(1));
  encoder_backward_ = make_gru_parameters<T>("encoder_backward", d_x, h_e, seed(2));
  decoder_ = make_gru_parameters<T>("decoder", d_y + 2 * h_e, h_d, seed(3));
  init_w_.value = detail::fan_in_uniform<T>(2 * h_e, h_d, seed(4));
  init_b_.value = MatrixT<T>::Zero(1, h_d);
  target_embedding_.value = detail::uniform_weight<T>(config_.target_words, d_y, 0.1, seed(5));
  output_w_.value = detail::fan_in_uniform<T>(h_d + 2 * h_e + d_y, d_y, seed(6));
  output_b_.value = MatrixT<T>::Zero(1, d_y);
  logit_b_.value = MatrixT<T>::Zero(1, config_.target_words);
  if (config_.bridge == Bridge::attention) {
    query_w_.value = detail::fan_in_uniform<T>(h_d, d_a, seed(7));
    key_w_.value = detail::fan_in_uniform<T>(2 * h_e, d_a, seed(8));
    key_b_.value = MatrixT<T>::Zero(1, d_a);
    score_v_.value = detail::fan_in_uniform<T>(d_a, 1, seed(9)).transpose();
  }
  check_and_name();
  zero_grad();
}

template <typename T>
Translator<T> Translator<T>::from_weights(const TranslatorConfig& config,
                                          std::shared_ptr<const MatrixT<T>> word_vectors,
                                          std::vector<MatrixT<T>> values) {
  Translator model;
  model.config_ = config;
  model.word_vectors_ = std::move(word_vectors);
  model.check_and_name();
  set_parameter_values(model.parameters(), translator_parameter_shapes(config), std::move(values),
                       kWhere);
  return model;
}

template <typename T>
std::vector<Parameter<T>*> Translator<T>::parameters() {
  std::vector<Parameter<T>*> all{&unknown_};
  for (GruParameters<T>* g : {&encoder_forward_, &encoder_backward_, &decoder_}) {
    for (Parameter<T>* p : {&g->w_x, &g->b_x, &g->w_h, &g->b_h}) all.push_back(p);
  }
  for (Parameter<T>* p :
       {&init_w_, &init_b_, &target_embedding_, &output_w_, &output_b_, &logit_b_}) {
    all.push_back(p);
  }
  if (config_.bridge == Bridge::attention) {
    for (Parameter<T>* p : {&query_w_, &key_w_, &key_b_, &score_v_}) all.push_back(p);
  }
  return all;
}

template <typename T>
void Translator<T>::zero_grad() {
  for (Parameter<T>* p : parameters()) p->zero_grad();
}

// s_prev: (B, H_d), previous: (B, d_y) -> c_t: (B, 2 H_e), s_t: (B, H_d)
template <typename T>
TranslatorDecoderStep<T> Translator<T>::decoder_step(MatrixT<T> s_prev, const MatrixT<T>& previous,
                                                     const Encoded& encoded,
                                                     std::vector<unsigned char> active) const {
  const Eigen::Index rows = s_prev.rows(), h_e = config_.encoder_state;
  TranslatorDecoderStep<T> step;
  // 1. c_t: the sentence's summary for the fixed vector; for the attention model, each active
  // row's query s_{t-1} W_a scores its sentence's keys, and c_t averages its states h_j.
  if (config_.bridge == Bridge::attention) {
    step.query = linear_forward<T>(s_prev, query_w_, nullptr);
    step.context = MatrixT<T>::Zero(rows, 2 * h_e);
    AttentionGradOptions options;
    options.scoring = Scoring::additive;
    for (Eigen::Index b = 0; b < rows; ++b) {
      if (!active.empty() && !active[static_cast<size_t>(b)]) continue;
      const auto j = static_cast<size_t>(encoded.sentence[static_cast<size_t>(b)]);
      step.attention.push_back(attention_forward<T>(step.query.y.row(b), encoded.keys[j].y,
                                                    encoded.states[j], options, &score_v_));
      step.attended.push_back(static_cast<int>(b));
      step.context.row(b) = step.attention.back().output.row(0);
    }
  } else {
    step.context.resize(rows, 2 * h_e);
    for (Eigen::Index b = 0; b < rows; ++b) {
      step.context.row(b) = encoded.summary.row(encoded.sentence[static_cast<size_t>(b)]);
    }
  }
  // 2. s_t from s_{t-1} and the input [D y_{t-1} ; c_t], whose share of the gates is one product.
  step.input = linear_forward(beside<T>(previous, step.context), decoder_.w_x, &decoder_.b_x);
  step.cell = gru_step_forward(step.input.y, std::move(s_prev), decoder_, std::move(active));
  return step;
}

// joined: (N, H_d + 2 H_e + d_y), output_weights: (d_y, V) -> (N, V)
template <typename T>
MatrixT<T> Translator<T>::output_logits(MatrixT<T> joined, const MatrixT<T>& output_weights,
                                        LinearPass<T>& linear, TanhPass<T>& output) const {
  linear = linear_forward(std::move(joined), output_w_, &output_b_);
  output = tanh_forward(linear.y);
  MatrixT<T> logits = detail::product(output.y, output_weights);
  logits.rowwise() += logit_b_.value.row(0);
  return logits;
}

template <typename T>
TranslatorPass<T> Translator<T>::forward(const TranslationBatch& batch, double dropout,
                                         Rng* rng) const {
  const int n_pairs = static_cast<int>(batch.sources.size());
  if (!(dropout >= 0 && dropout < 1) || (dropout > 0 && !rng)) {
    detail::fail(kWhere, "dropout needs a rate in [0, 1), and a generator when it is above 0");
  }
  // Dropout's masks: none (and nothing drawn) at rate 0.
  const auto drop = [&](MatrixT<T>& x) {
    return dropout > 0 ? dropout_forward(x, dropout, *rng) : MatrixT<T>();
  };
  detail::check_translation_batch(kWhere, batch, config_.source_words, config_.target_words);
  TranslatorPass<T> pass;
  pass.batch = n_pairs;
  for (int b = 0; b < n_pairs; ++b) {
    pass.source_lengths.push_back(static_cast<int>(batch.sources[b].size()));
    pass.target_lengths.push_back(static_cast<int>(batch.targets[b].size()) + 1);
    pass.source_steps = std::max(pass.source_steps, pass.source_lengths.back());
    pass.target_steps = std::max(pass.target_steps, pass.target_lengths.back());
  }
  const Eigen::Index n_b = n_pairs, h_e = config_.encoder_state;
  const bool attend = config_.bridge == Bridge::attention;

  // 1. English words, time-major, then both directions of the encoder from zero states.
  pass.source_ids.assign(static_cast<size_t>(pass.source_steps) * n_pairs, -1);
  for (int b = 0; b < n_pairs; ++b) {
    for (int j = 0; j < pass.source_lengths[b]; ++j) {
      pass.source_ids[static_cast<size_t>(j) * n_pairs + b] = batch.sources[b][j];
    }
  }
  pass.embedded = frozen_embedding_forward(pass.source_ids, *word_vectors_, unknown_);
  pass.source_mask = drop(pass.embedded);
  const MatrixT<T> zero_state = MatrixT<T>::Zero(n_b, h_e);
  pass.forward =
      gru_sequence_forward(pass.embedded, pass.source_lengths, false, encoder_forward_, zero_state);
  pass.backward =
      gru_sequence_forward(pass.embedded, pass.source_lengths, true, encoder_backward_, zero_state);

  // 2. The summary [f_n ; b_1] starts the decoder (and is the fixed vector's only context).
  pass.summary = beside(pass.forward.last, pass.backward.last);
  pass.init_linear = linear_forward(pass.summary, init_w_, &init_b_);
  pass.init = tanh_forward(pass.init_linear.y);

  // 3. Each pair's encoder states h_j = [f_j ; b_j], and their keys h_j U_a + b_a.
  pass.states.resize(static_cast<size_t>(n_pairs));
  if (attend) pass.keys.resize(static_cast<size_t>(n_pairs));
  for (int b = 0; b < n_pairs; ++b) {
    MatrixT<T>& h = pass.states[static_cast<size_t>(b)];
    h.resize(pass.source_lengths[b], 2 * h_e);
    for (int j = 0; j < pass.source_lengths[b]; ++j) {
      h.row(j) << pass.forward.states.row(j * n_b + b), pass.backward.states.row(j * n_b + b);
    }
    if (attend) pass.keys[static_cast<size_t>(b)] = linear_forward(h, key_w_, &key_b_);
  }

  // 4. The decoder's inputs <s> y_1 .. y_m and labels y_1 .. y_m </s>, time-major.
  const int m_steps = pass.target_steps;
  std::vector<int> inputs(static_cast<size_t>(m_steps) * n_pairs, kTargetPadding);
  pass.labels.assign(inputs.size(), kIgnoredTarget);
  for (int b = 0; b < n_pairs; ++b) {
    const std::vector<int>& y = batch.targets[b];
    for (int t = 0; t < pass.target_lengths[b]; ++t) {
      const size_t row = static_cast<size_t>(t) * n_pairs + b;
      inputs[row] = t == 0 ? kTargetStart : y[t - 1];
      pass.labels[row] = t < static_cast<int>(y.size()) ? y[t] : kTargetEnd;
    }
  }
  pass.target_embedding = embedding_forward(inputs, target_embedding_, kTargetPadding);
  pass.target_mask = drop(pass.target_embedding.y);

  // 5. The decoder, a step at a time (decoder_step, which translate() runs too): c_t from
  // s_{t-1}, then s_t from [D y_{t-1} ; c_t]. Row b of every step is pair b, which reads its own
  // sentence; a pair past its end keeps its state.
  std::vector<int> sentence(static_cast<size_t>(n_pairs));
  for (int b = 0; b < n_pairs; ++b) sentence[static_cast<size_t>(b)] = b;
  const Encoded encoded{pass.states, pass.keys, pass.summary, sentence};
  MatrixT<T> s = pass.init.y;
  pass.steps.resize(static_cast<size_t>(m_steps));
  for (int t = 0; t < m_steps; ++t) {
    std::vector<unsigned char> active(static_cast<size_t>(n_pairs));
    for (int b = 0; b < n_pairs; ++b) active[b] = t < pass.target_lengths[b] ? 1 : 0;
    const MatrixT<T> previous =
        pass.target_embedding.y.middleRows(static_cast<Eigen::Index>(t) * n_b, n_b);
    TranslatorDecoderStep<T>& step = pass.steps[static_cast<size_t>(t)];
    step = decoder_step(std::move(s), previous, encoded, std::move(active));
    s = step.cell.h;
  }

  // 6. Every step's output at once, one product for all their rows (output_logits, which
  // translate() runs a step at a time): o = tanh([s ; c ; D y] W_o + b_o), logits o D^T + b_out.
  const Eigen::Index h_d = config_.decoder_state, d_y = config_.target_width;
  MatrixT<T> joined(static_cast<Eigen::Index>(m_steps) * n_b, h_d + 2 * h_e + d_y);
  for (int t = 0; t < m_steps; ++t) {
    const Eigen::Index first = static_cast<Eigen::Index>(t) * n_b;
    write_output_input(joined.middleRows(first, n_b), pass.steps[static_cast<size_t>(t)],
                       pass.target_embedding.y.middleRows(first, n_b));
  }
  pass.output_mask = drop(joined);
  MatrixT<T> logits = output_logits(std::move(joined), detail::transposed(target_embedding_.value),
                                    pass.output_linear, pass.output);
  const T total = softmax_cross_entropy_in_place(logits, pass.labels, T(1), &pass.counted);
  pass.loss = total / static_cast<T>(pass.counted);
  pass.d_logits = std::move(logits);
  return pass;
}

template <typename T>
void Translator<T>::backward(const TranslatorPass<T>& pass) {
  const Eigen::Index n_b = pass.batch, h_e = config_.encoder_state, h_d = config_.decoder_state,
                     d_y = config_.target_width;
  const bool attend = config_.bridge == Bridge::attention;
  const int m_steps = pass.target_steps;
  // A model made by from_weights() has no gradients until now.
  for (Parameter<T>* p : parameters()) {
    if (p->grad.rows() != p->value.rows() || p->grad.cols() != p->value.cols()) p->zero_grad();
  }

  // 6. The output layer: the tied D gets the logits' share here and the inputs' share below.
  const MatrixT<T> d_o = detail::product(pass.d_logits, target_embedding_.value);
  detail::add_transposed_product(target_embedding_.grad, pass.d_logits, pass.output.y);
  detail::add_column_sums(logit_b_.grad, pass.d_logits);
  MatrixT<T> d_joined =
      linear_backward(pass.output_linear, tanh_backward(pass.output, d_o), output_w_, &output_b_);
  dropout_backward(pass.output_mask, d_joined);
  MatrixT<T> d_inputs = d_joined.rightCols(d_y);  // (m_max B, d_y) dL/dD[y_{t-1}]

  // 5. The decoder in reverse: ds collects what s_t feeds (the output, the next step's cell and
  // its query).
  std::vector<MatrixT<T>> d_states(pass.states.size()), d_keys(pass.keys.size());
  for (size_t b = 0; b < pass.states.size(); ++b) {
    d_states[b] = MatrixT<T>::Zero(pass.states[b].rows(), pass.states[b].cols());
    if (attend) d_keys[b] = MatrixT<T>::Zero(pass.states[b].rows(), config_.attention);
  }
  MatrixT<T> d_summary = MatrixT<T>::Zero(n_b, 2 * h_e);
  MatrixT<T> ds = MatrixT<T>::Zero(n_b, h_d), d_gx;
  for (int t = m_steps - 1; t >= 0; --t) {
    const TranslatorDecoderStep<T>& step = pass.steps[static_cast<size_t>(t)];
    const Eigen::Index first = static_cast<Eigen::Index>(t) * n_b;
    ds += d_joined.block(first, 0, n_b, h_d);
    MatrixT<T> ds_prev = gru_step_backward(step.cell, ds, decoder_, &d_gx);
    const MatrixT<T> d_in = linear_backward(step.input, d_gx, decoder_.w_x, &decoder_.b_x);
    d_inputs.middleRows(first, n_b) += d_in.leftCols(d_y);
    const MatrixT<T> dc = d_in.rightCols(2 * h_e) + d_joined.block(first, h_d, n_b, 2 * h_e);
    if (attend) {
      MatrixT<T> dq = MatrixT<T>::Zero(n_b, config_.attention);
      for (size_t a = 0; a < step.attention.size(); ++a) {
        const auto b = static_cast<size_t>(step.attended[a]);
        const AttentionGradients<T> g =
            attention_backward(step.attention[a], MatrixT<T>(dc.row(step.attended[a])), &score_v_);
        dq.row(step.attended[a]) = g.dq.row(0);
        d_keys[b] += g.dk;
        d_states[b] += g.dv;
      }
      ds_prev += linear_backward<T>(step.query, dq, query_w_, nullptr);
    } else {
      d_summary += dc;
    }
    ds = std::move(ds_prev);
  }

  // 4. The German inputs' embeddings.
  dropout_backward(pass.target_mask, d_inputs);
  embedding_backward(pass.target_embedding, d_inputs, target_embedding_, kTargetPadding);

  // 2. s_0 = tanh([f_n ; b_1] W_init + b_init).
  d_summary += linear_backward(pass.init_linear, tanh_backward(pass.init, ds), init_w_, &init_b_);

  // 3. Keys back onto the encoder states, and the states back into the two directions.
  const Eigen::Index n_rows = static_cast<Eigen::Index>(pass.source_steps) * n_b;
  MatrixT<T> d_forward = MatrixT<T>::Zero(n_rows, h_e), d_backward = MatrixT<T>::Zero(n_rows, h_e);
  for (size_t b = 0; b < pass.states.size(); ++b) {
    if (attend) d_states[b] += linear_backward(pass.keys[b], d_keys[b], key_w_, &key_b_);
    for (Eigen::Index j = 0; j < d_states[b].rows(); ++j) {
      const Eigen::Index row = j * n_b + static_cast<Eigen::Index>(b);
      d_forward.row(row) = d_states[b].row(j).leftCols(h_e);
      d_backward.row(row) = d_states[b].row(j).rightCols(h_e);
    }
  }

  // 1. Both directions, then the learned unknown-word vector (the word vectors are frozen).
  MatrixT<T> d_embedded = gru_sequence_backward<T>(
      pass.forward, d_forward, MatrixT<T>(d_summary.leftCols(h_e)), encoder_forward_, nullptr);
  d_embedded += gru_sequence_backward<T>(
      pass.backward, d_backward, MatrixT<T>(d_summary.rightCols(h_e)), encoder_backward_, nullptr);
  dropout_backward(pass.source_mask, d_embedded);
  frozen_embedding_backward(pass.source_ids, d_embedded, *word_vectors_, unknown_);
}

template <typename T>
Translation Translator<T>::translate(const std::vector<int>& source, int max_words,
                                     int beam) const {
  return translate_with(source, max_words, beam, detail::transposed(target_embedding_.value));
}

// output_weights: D^T (d_y, V) -> the chosen hypothesis's words, and per step t its scores e_t and
// weights alpha_t.
template <typename T>
Translation Translator<T>::translate_with(const std::vector<int>& source, int max_words, int beam,
                                          const MatrixT<T>& output_weights) const {
  detail::check_translate_request(kWhere, source, config_.source_words, max_words, beam);
  const auto n = static_cast<Eigen::Index>(source.size());
  const Eigen::Index h_e = config_.encoder_state, h_d = config_.decoder_state,
                     d_y = config_.target_width;
  const bool attend = config_.bridge == Bridge::attention;
  const int words = config_.target_words;

  // 1. The encoder as in forward, for one sentence.
  const MatrixT<T> embedded = frozen_embedding_forward(source, *word_vectors_, unknown_);
  const std::vector<int> length{static_cast<int>(n)};
  const MatrixT<T> zero_state = MatrixT<T>::Zero(1, h_e);
  const auto fwd = gru_sequence_forward(embedded, length, false, encoder_forward_, zero_state);
  const auto bwd = gru_sequence_forward(embedded, length, true, encoder_backward_, zero_state);
  const MatrixT<T> summary = beside(fwd.last, bwd.last);
  const std::vector<MatrixT<T>> states{beside(fwd.states, bwd.states)};
  std::vector<LinearPass<T>> keys;
  if (attend) keys.push_back(linear_forward(states[0], key_w_, &key_b_));
  MatrixT<T> s = tanh_forward(linear_forward(summary, init_w_, &init_b_).y).y;

  // 2. The search (beam_search.hpp), a step at a time. Row i of a step is live hypothesis i: s
  // (live, H_d) its state, previous (live, d_y) its last word's embedding. Every row reads the one
  // sentence. The search starts from <s>, one hypothesis.
  std::vector<int> sentence;
  const Encoded encoded{states, keys, summary, sentence};
  MatrixT<T> previous = target_embedding_.value.row(kTargetStart);
  // Per step t: each live row's alpha_t and e_t (live, n).
  std::vector<MatrixT<T>> step_weights, step_scores;
  TranslatorDecoderStep<T> last;
  const auto step = [&](int t, const std::vector<int>& rows, const std::vector<int>& ids) {
    // 3. The step's rows: each one's state s_{t-1} and its word's embedding D y_{t-1}.
    if (t > 0) {
      s.resize(static_cast<Eigen::Index>(rows.size()), h_d);
      previous.resize(static_cast<Eigen::Index>(rows.size()), d_y);
      for (size_t j = 0; j < rows.size(); ++j) {
        const auto r = static_cast<Eigen::Index>(j);
        s.row(r) = last.cell.h.row(rows[j]);
        previous.row(r) = target_embedding_.value.row(ids[j]);
      }
    }
    const Eigen::Index live = s.rows();
    sentence.assign(static_cast<size_t>(live), 0);
    last = decoder_step(std::move(s), previous, encoded, {});
    MatrixT<T> weights(live, attend ? n : 0), scores(live, attend ? n : 0);
    for (size_t a = 0; a < last.attention.size(); ++a) {
      weights.row(last.attended[a]) = last.attention[a].weights.row(0);
      scores.row(last.attended[a]) = last.attention[a].scores.row(0);
    }
    step_weights.push_back(std::move(weights));
    step_scores.push_back(std::move(scores));
    // 4. The logits o D^T + b_out of every row over the whole German vocabulary: (live, V).
    MatrixT<T> joined(live, h_d + 2 * h_e + d_y);
    write_output_input(joined, last, previous);
    LinearPass<T> linear;
    TanhPass<T> output;
    return output_logits(std::move(joined), output_weights, linear, output);
  };
  const detail::BeamResult chosen = detail::beam_search<T>(max_words, beam, words, step);

  // 5. The chosen hypothesis's words, and its rows of every step.
  const auto steps = static_cast<Eigen::Index>(chosen.rows.size());
  Translation out;
  out.words = chosen.words;
  out.weights.resize(steps, attend ? n : 0);
  out.scores.resize(steps, attend ? n : 0);
  for (Eigen::Index t = 0; t < steps; ++t) {
    const int row = chosen.rows[static_cast<size_t>(t)];
    out.weights.row(t) = step_weights[static_cast<size_t>(t)].row(row).template cast<float>();
    out.scores.row(t) = step_scores[static_cast<size_t>(t)].row(row).template cast<float>();
  }
  out.log_probability = static_cast<float>(chosen.log_probability);
  return out;
}

template <typename T>
FrozenTranslator<T>::FrozenTranslator(Translator<T> model)
    : model_(std::move(model)),
      output_weights_(detail::transposed(model_.target_embedding_.value)) {}

template class Translator<float>;
template class Translator<double>;
template class FrozenTranslator<float>;
template class FrozenTranslator<double>;

}  // namespace attn

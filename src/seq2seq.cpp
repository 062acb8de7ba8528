#include "attn/seq2seq.hpp"

#include <cmath>
#include <string>

#include "attn/loss.hpp"
#include "attn/positional.hpp"
#include "attn/random.hpp"
#include "checks.hpp"
#include "initial_weights.hpp"
#include "ordered_math.hpp"

namespace attn {
namespace {

constexpr const char* kWhere = "seq2seq model";

// rows (b, t) of a (B L, width) matrix, b < B, t < L.
template <typename T>
auto sequence_rows(MatrixT<T>& m, int b, int length) {
  return m.middleRows(static_cast<Eigen::Index>(b) * length, length);
}

// Throws unless the batch holds together as reversal_task.hpp describes it: B >= 1 sequences,
// each of length 1 to max_length <= kMaxSequenceLength, inputs and targets of B * max_length
// symbols, 1..vocab in each sequence and padding (0) after it in the inputs. Everything the
// forward pass indexes by is checked here, so a batch put together by hand cannot send it past
// the end of a buffer.
void check_batch(const ReversalBatch& batch, int vocab) {
  const int n_seq = batch.size, length = batch.max_length;
  if (length < 1 || length > kMaxSequenceLength || n_seq < 1) {
    detail::fail(kWhere, "a batch needs sequences of length 1 to " +
                             std::to_string(kMaxSequenceLength) + ", got " + std::to_string(n_seq) +
                             " sequences padded to " + std::to_string(length));
  }
  const auto cells = static_cast<size_t>(n_seq) * static_cast<size_t>(length);
  if (batch.lengths.size() != static_cast<size_t>(n_seq) || batch.inputs.size() != cells ||
      batch.targets.size() != cells) {
    detail::fail(kWhere, "a batch of " + std::to_string(n_seq) + " sequences padded to " +
                             std::to_string(length) + " needs " + std::to_string(n_seq) +
                             " lengths and " + std::to_string(cells) + " inputs and targets, got " +
                             std::to_string(batch.lengths.size()) + ", " +
                             std::to_string(batch.inputs.size()) + " and " +
                             std::to_string(batch.targets.size()));
  }
  for (int b = 0; b < n_seq; ++b) {
    const int n = batch.lengths[static_cast<size_t>(b)];
    if (n < 1 || n > length) {
      detail::fail(kWhere, "sequence " + std::to_string(b) + " has length " + std::to_string(n) +
                               ", outside 1 to max_length = " + std::to_string(length));
    }
    for (int i = 0; i < length; ++i) {
      const int symbol = batch.inputs[static_cast<size_t>(b) * length + i];
      const bool fits = i < n ? symbol >= 1 && symbol <= vocab : symbol == kPaddingSymbol;
      if (!fits) {
        detail::fail(kWhere, "input " + std::to_string(i) + " of sequence " + std::to_string(b) +
                                 " is " + std::to_string(symbol) + "; it must be " +
                                 (i < n ? "a symbol 1 to vocab = " + std::to_string(vocab)
                                        : std::string("padding (0) after the sequence's end")));
      }
    }
  }
}

}  // namespace

const char* model_name(Bridge kind) { return kind == Bridge::fixed_vector ? "fixed" : "attention"; }

template <typename T>
Seq2Seq<T>::Seq2Seq(const ModelOptions& options) : options_(options) {
  detail::check_range(kWhere, "d_model", options.d_model, 2, 256);
  detail::check_range(kWhere, "d_k", options.d_k, 1, 1024);
  detail::check_range(kWhere, "vocab", options.vocab, 2, 64);
  const int d = options.d_model, d_k = options.d_k, v = options.vocab;
  // Every parameter draws from a stream of its own, so adding one changes no other.
  const auto seed = [&](std::uint64_t tag) { return derive_seed(options.seed, tag); };
  positions_ = positional_encoding(kMaxSequenceLength, d).template cast<T>();
  // E: unit normal, so that a symbol weighs about as much as its position (|P(r)|^2 = d / 2);
  // row 0 is padding and stays 0.
  MatrixT<T> table = unit_normal(v + 1, d, seed(0)).template cast<T>();
  table.row(0).setZero();
  embedding_ = Parameter<T>("E", table);
  encoder_w_ = Parameter<T>("W_e", detail::fan_in_uniform<T>(d, d, seed(1)));
  encoder_b_ = Parameter<T>("b_e", MatrixT<T>::Zero(1, d));
  if (options.kind == Bridge::attention) {
    query_w_ = Parameter<T>("W_q", detail::fan_in_uniform<T>(d, d_k, seed(2)));
    key_w_ = Parameter<T>("W_k", detail::fan_in_uniform<T>(d, d_k, seed(3)));
    value_w_ = Parameter<T>("W_v", detail::fan_in_uniform<T>(d, d, seed(4)));
    if (options.scoring == Scoring::additive) {
      score_w_ = Parameter<T>("w_score", detail::fan_in_uniform<T>(1, d_k, seed(5)));
    }
  } else {
    summary_w_ = Parameter<T>("W_c", detail::fan_in_uniform<T>(d, d, seed(6)));
    summary_b_ = Parameter<T>("b_c", MatrixT<T>::Zero(1, d));
  }
  decoder_w_ = Parameter<T>("W_d", detail::fan_in_uniform<T>(2 * d, d, seed(7)));
  decoder_b_ = Parameter<T>("b_d", MatrixT<T>::Zero(1, d));
  output_w_ = Parameter<T>("W_o", detail::fan_in_uniform<T>(d, v, seed(8)));
  output_b_ = Parameter<T>("b_o", MatrixT<T>::Zero(1, v));
}

template <typename T>
std::vector<Parameter<T>*> Seq2Seq<T>::parameters() {
  std::vector<Parameter<T>*> list{&embedding_, &encoder_w_, &encoder_b_};
  if (options_.kind == Bridge::attention) {
    list.insert(list.end(), {&query_w_, &key_w_, &value_w_});
    if (options_.scoring == Scoring::additive) list.push_back(&score_w_);
  } else {
    list.insert(list.end(), {&summary_w_, &summary_b_});
  }
  list.insert(list.end(), {&decoder_w_, &decoder_b_, &output_w_, &output_b_});
  return list;
}

template <typename T>
void Seq2Seq<T>::zero_grad() {
  for (Parameter<T>* p : parameters()) p->zero_grad();
}

template <typename T>
Seq2SeqPass<T> Seq2Seq<T>::forward(const ReversalBatch& batch) const {
  const int n_seq = batch.size, length = batch.max_length, d = options_.d_model;
  check_batch(batch, options_.vocab);
  const Eigen::Index rows = static_cast<Eigen::Index>(n_seq) * length;  // B L
  Seq2SeqPass<T> pass;
  pass.batch = batch;

  // 1. Encoder: h = tanh((E[x] + P(r)) W_e + b_e), P(r) counted from the end; padded rows keep
  //    zeros as input (they are masked out of everything downstream).
  pass.embedding = embedding_forward(batch.inputs, embedding_, kPaddingSymbol);
  MatrixT<T> encoder_input = pass.embedding.y;  // (B L, d)
  for (int b = 0; b < n_seq; ++b) {
    const int n = batch.lengths[static_cast<size_t>(b)];
    for (int i = 0; i < n; ++i) {
      encoder_input.row(static_cast<Eigen::Index>(b) * length + i) += positions_.row(n - 1 - i);
    }
  }
  pass.encoder_linear = linear_forward(std::move(encoder_input), encoder_w_, &encoder_b_);
  pass.encoder = tanh_forward(pass.encoder_linear.y);
  const MatrixT<T>& h = pass.encoder.y;  // (B L, d)

  // 2. What the decoder reads at step t besides P(t): the context (attention) or c (fixed).
  MatrixT<T> decoder_input(rows, 2 * d);  // [context or c ; P(t)]: (B L, 2d)
  if (options_.kind == Bridge::attention) {
    // 2a. One query per output step, shared by every sequence: P(t) W_q (L, d_k).
    pass.query = linear_forward<T>(positions_.topRows(length), query_w_, nullptr);
    pass.key = linear_forward<T>(h, key_w_, nullptr);      // (B L, d_k)
    pass.value = linear_forward<T>(h, value_w_, nullptr);  // (B L, d)
    const Parameter<T>* w = options_.scoring == Scoring::additive ? &score_w_ : nullptr;
    AttentionGradOptions attention_options;
    attention_options.scoring = options_.scoring;
    for (int b = 0; b < n_seq; ++b) {
      // Each sequence attends over its own positions; its padded positions are masked.
      attention_options.key_padding = batch.padding_of(b);
      pass.attention.push_back(
          attention_forward<T>(pass.query.y, sequence_rows(pass.key.y, b, length),
                               sequence_rows(pass.value.y, b, length), attention_options, w));
      sequence_rows(decoder_input, b, length).leftCols(d) = pass.attention.back().output;
    }
  } else {
    // 2b. The mean of h over real positions, in order, then one linear + tanh: c, (B, d).
    pass.mean = MatrixT<T>::Zero(n_seq, d);
    for (int b = 0; b < n_seq; ++b) {
      const int n = batch.lengths[static_cast<size_t>(b)];
      for (int i = 0; i < n; ++i)
        pass.mean.row(b) += h.row(static_cast<Eigen::Index>(b) * length + i);
      pass.mean.row(b) /= static_cast<T>(n);
    }
    pass.summary_linear = linear_forward(pass.mean, summary_w_, &summary_b_);
    pass.summary = tanh_forward(pass.summary_linear.y);
    for (int b = 0; b < n_seq; ++b) {
      sequence_rows(decoder_input, b, length).leftCols(d).rowwise() = pass.summary.y.row(b);
    }
  }
  for (int b = 0; b < n_seq; ++b) {
    sequence_rows(decoder_input, b, length).rightCols(d) = positions_.topRows(length);
  }

  // 3. The shared output head: logits = tanh([. ; P(t)] W_d + b_d) W_o + b_o, (B L, V).
  pass.decoder_linear = linear_forward(std::move(decoder_input), decoder_w_, &decoder_b_);
  pass.decoder = tanh_forward(pass.decoder_linear.y);
  pass.output = linear_forward(pass.decoder.y, output_w_, &output_b_);

  // 4. The loss over real output steps; class c stands for symbol c + 1.
  pass.targets.resize(static_cast<size_t>(rows));
  for (size_t r = 0; r < pass.targets.size(); ++r) {
    const int symbol = batch.targets[r];
    if (symbol < 0 || symbol > options_.vocab) {
      detail::fail(kWhere,
                   "the batch holds symbol " + std::to_string(symbol) +
                       ", outside 0 (padding) to vocab = " + std::to_string(options_.vocab));
    }
    pass.targets[r] = symbol == kPaddingSymbol ? kIgnoredTarget : symbol - 1;
  }
  CrossEntropy<T> loss = softmax_cross_entropy(pass.output.y, pass.targets);
  pass.loss = loss.loss;
  pass.d_logits = std::move(loss.d_logits);

  // 5. Predictions: the most likely symbol at each real step (the first on a tie).
  pass.predictions.assign(static_cast<size_t>(rows), kPaddingSymbol);
  for (Eigen::Index r = 0; r < rows; ++r) {
    if (pass.targets[static_cast<size_t>(r)] == kIgnoredTarget) continue;
    Eigen::Index best = 0;
    for (Eigen::Index c = 1; c < pass.output.y.cols(); ++c) {
      if (pass.output.y(r, c) > pass.output.y(r, best)) best = c;
    }
    pass.predictions[static_cast<size_t>(r)] = static_cast<int>(best) + 1;
  }
  return pass;
}

template <typename T>
void Seq2Seq<T>::backward(const Seq2SeqPass<T>& pass) {
  const ReversalBatch& batch = pass.batch;
  const int n_seq = batch.size, length = batch.max_length, d = options_.d_model;

  // 3'. The output head, from the loss back to [context or c ; P(t)]; P(t) is fixed.
  const MatrixT<T> d_decoder = linear_backward(pass.output, pass.d_logits, output_w_, &output_b_);
  const MatrixT<T> d_decoder_linear = tanh_backward(pass.decoder, d_decoder);
  MatrixT<T> d_decoder_input =
      linear_backward(pass.decoder_linear, d_decoder_linear, decoder_w_, &decoder_b_);

  // 2'. Back to the encoder states h: (B L, d).
  MatrixT<T> d_h;
  if (options_.kind == Bridge::attention) {
    MatrixT<T> d_query = MatrixT<T>::Zero(length, options_.d_k);
    MatrixT<T> d_key(pass.key.y.rows(), pass.key.y.cols());
    MatrixT<T> d_value(pass.value.y.rows(), pass.value.y.cols());
    Parameter<T>* w = options_.scoring == Scoring::additive ? &score_w_ : nullptr;
    for (int b = 0; b < n_seq; ++b) {
      const MatrixT<T> d_context = sequence_rows(d_decoder_input, b, length).leftCols(d);
      const AttentionGradients<T> g = attention_backward(pass.attention[b], d_context, w);
      d_query += g.dq;  // the queries are shared: their gradients add up over the sequences
      sequence_rows(d_key, b, length) = g.dk;
      sequence_rows(d_value, b, length) = g.dv;
    }
    linear_backward<T>(pass.query, d_query, query_w_, nullptr);
    d_h = linear_backward<T>(pass.key, d_key, key_w_, nullptr);
    d_h += linear_backward<T>(pass.value, d_value, value_w_, nullptr);
  } else {
    // c feeds every step of its sequence: its gradient is the sum over the steps.
    MatrixT<T> d_summary = MatrixT<T>::Zero(n_seq, d);
    for (int b = 0; b < n_seq; ++b) {
      for (int t = 0; t < length; ++t) {
        d_summary.row(b) +=
            d_decoder_input.row(static_cast<Eigen::Index>(b) * length + t).leftCols(d);
      }
    }
    const MatrixT<T> d_mean = linear_backward(
        pass.summary_linear, tanh_backward(pass.summary, d_summary), summary_w_, &summary_b_);
    // The mean spreads its gradient evenly over the real positions; padded ones get exactly 0.
    d_h = MatrixT<T>::Zero(pass.encoder.y.rows(), d);
    for (int b = 0; b < n_seq; ++b) {
      const int n = batch.lengths[static_cast<size_t>(b)];
      for (int i = 0; i < n; ++i) {
        d_h.row(static_cast<Eigen::Index>(b) * length + i) = d_mean.row(b) / static_cast<T>(n);
      }
    }
  }

  // 1'. The encoder, down to the embedding rows of the symbols read.
  const MatrixT<T> d_encoder_linear = tanh_backward(pass.encoder, d_h);
  const MatrixT<T> d_encoder_input =
      linear_backward(pass.encoder_linear, d_encoder_linear, encoder_w_, &encoder_b_);
  embedding_backward(pass.embedding, d_encoder_input, embedding_, kPaddingSymbol);
}

template class Seq2Seq<float>;
template class Seq2Seq<double>;
template struct Seq2SeqPass<float>;
template struct Seq2SeqPass<double>;

}  // namespace attn

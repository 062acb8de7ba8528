#include "attn/language_model.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <utility>

#include "attn/lm_weights.hpp"
#include "attn/loss.hpp"
#include "attn/random.hpp"
#include "checks.hpp"
#include "dense_linear.hpp"

namespace attn {
namespace {

constexpr const char* kWhere = "language model";

// Checks a batch and returns the number of counted (not ignored) targets in it.
int counted_targets(const std::vector<std::vector<int>>& inputs,
                    const std::vector<std::vector<int>>& targets, int vocab) {
  if (inputs.size() != targets.size()) {
    detail::fail(kWhere, std::to_string(inputs.size()) + " input sequences but " +
                             std::to_string(targets.size()) + " target sequences");
  }
  int counted = 0;
  for (size_t s = 0; s < inputs.size(); ++s) {
    if (inputs[s].size() != targets[s].size()) {
      detail::fail(kWhere, "sequence " + std::to_string(s) + " has " +
                               std::to_string(inputs[s].size()) + " tokens but " +
                               std::to_string(targets[s].size()) + " targets: one per token");
    }
    for (const int t : targets[s]) {
      if (t == kIgnoredTarget) continue;
      if (t < 0 || t >= vocab) {
        detail::fail(kWhere, "target " + std::to_string(t) + " in sequence " + std::to_string(s) +
                                 " is neither a word id in [0, " + std::to_string(vocab) +
                                 ") nor ignored");
      }
      ++counted;
    }
  }
  if (counted == 0) detail::fail(kWhere, "every target of the batch is ignored: there is no loss");
  return counted;
}

bool any_counted(const std::vector<int>& targets) {
  for (const int t : targets) {
    if (t != kIgnoredTarget) return true;
  }
  return false;
}

// sqrt(mean of x^2) over every entry, in double.
template <typename T>
double rms(const MatrixT<T>& x) {
  return std::sqrt(x.template cast<double>().squaredNorm() / static_cast<double>(x.size()));
}

// row: (d) -> whether every entry is finite; sets any_nonzero when one is not 0. A call of its
// own per row, never inlined into the loop over the rows: a WebAssembly engine runs a function
// in its baseline code until a later call, so the 20,000 rows of the page's word vectors run
// in optimised code after the first few (see Embeddings::row_norm).
template <typename T>
[[gnu::noinline]] bool finite_row(const T* row, Eigen::Index d, bool& any_nonzero) {
  bool finite = true, nonzero = false;
  for (Eigen::Index k = 0; k < d; ++k) {
    finite = finite && std::isfinite(row[k]);
    nonzero = nonzero || row[k] != T(0);
  }
  any_nonzero = any_nonzero || nonzero;
  return finite;
}

void check_config(const LanguageModelConfig& config) {
  detail::check_range(kWhere, "vocab", config.vocab, 2, 1 << 20);
  detail::check_range(kWhere, "d_embed", config.d_embed, 1, 4096);
  detail::check_range(kWhere, "d_model", config.d_model, 1, 4096);
  detail::check_range(kWhere, "layers", config.layers, 1, 64);
  detail::check_range(kWhere, "heads", config.heads, 1, config.d_model);
  detail::check_range(kWhere, "d_mlp", config.d_mlp, 1, 16384);
  detail::check_range(kWhere, "context", config.context, 1, 4096);
  if (config.d_model % config.heads != 0) {
    detail::fail(kWhere, "heads (" + std::to_string(config.heads) + ") must divide d_model (" +
                             std::to_string(config.d_model) + ")");
  }
}

// e: (vocab, d_embed). Throws unless e has that shape and every entry is finite; returns whether
// one is not 0.
template <typename T>
bool check_word_vectors(const LanguageModelConfig& config, const MatrixT<T>& e) {
  if (e.rows() != config.vocab || e.cols() != config.d_embed) {
    detail::fail(kWhere, "the word vectors are " + shape_of(e.rows(), e.cols()) +
                             " but the config asks for " + shape_of(config.vocab, config.d_embed) +
                             " (vocab x d_embed)");
  }
  bool any_nonzero = false;
  for (Eigen::Index i = 0; i < e.rows(); ++i) {
    if (!finite_row(e.row(i).data(), e.cols(), any_nonzero)) {
      detail::fail(kWhere, "the word vectors contains NaN or infinity; every value must be finite");
    }
  }
  return any_nonzero;
}

}  // namespace

template <typename T>
LanguageModel<T>::LanguageModel(const LanguageModelConfig& config, MatrixT<T> word_vectors)
    : config_(config), word_vectors_(std::move(word_vectors)) {
  check_config(config);
  check_word_vectors(config, word_vectors_);
  // The RMS entry sets the scale of W_in and W_out. It is one sum over the whole of E in double,
  // kept apart from the row-by-row finiteness check: the weights a seed gives depend on its
  // bits, so its order of summation is part of what a seed means.
  const double e_rms = rms(word_vectors_);
  if (!(e_rms > 0)) detail::fail(kWhere, "the word vectors are all zero");

  const int d = config.d_model, e = config.d_embed;
  // Every parameter draws from a stream of its own, so adding one changes no other.
  const auto seed = [&](std::uint64_t tag) { return derive_seed(config.seed, tag); };
  input_w_ = Parameter<T>({}, detail::fan_in_uniform<T>(e, d, seed(1), 1.0 / e_rms));
  input_b_ = Parameter<T>({}, MatrixT<T>::Zero(1, d));
  const Matrix p = unit_normal(config.context, d, seed(2)) * config.position_scale;
  positions_ = Parameter<T>({}, p.cast<T>());
  const double residual_scale = 1.0 / std::sqrt(2.0 * config.layers);
  for (int l = 0; l < config.layers; ++l) {
    blocks_.push_back(decoder_block_weights<T>(d, config.heads, config.d_mlp,
                                               seed(100 + static_cast<std::uint64_t>(l)),
                                               residual_scale, {}));
  }
  final_norm_ = layer_norm_weights<T>(d, {});
  // Row norms of E have mean square e * e_rms^2; h W_out has entries of about unit variance.
  const double row_rms = e_rms * std::sqrt(static_cast<double>(e));
  output_w_ = Parameter<T>({}, detail::fan_in_uniform<T>(d, e, seed(3), 1.0 / row_rms));
  output_b_ = Parameter<T>({}, MatrixT<T>::Zero(1, config.vocab));
  name_parameters();
}

template <typename T>
void LanguageModel<T>::name_parameters() {
  input_w_.name = "W_in";
  input_b_.name = "b_in";
  positions_.name = "P";
  for (size_t l = 0; l < blocks_.size(); ++l) blocks_[l].name("block" + std::to_string(l));
  final_norm_.name("final_norm");
  output_w_.name = "W_out";
  output_b_.name = "b_out";
}

// word_vectors: (vocab, d_embed); values: one per parameter, in the order of parameters()
template <typename T>
LanguageModel<T> LanguageModel<T>::from_weights(const LanguageModelConfig& config,
                                                MatrixT<T> word_vectors,
                                                std::vector<MatrixT<T>> values) {
  // 1. The constructor's checks, except that "not all zero" needs no sum of squares here: no
  //    scale is drawn from it.
  check_config(config);
  if (!check_word_vectors(config, word_vectors)) {
    detail::fail(kWhere, "the word vectors are all zero");
  }
  LanguageModel model;
  model.config_ = config;
  model.word_vectors_ = std::move(word_vectors);
  // 2. Every parameter named as the seeded constructor names it, with no value yet.
  model.blocks_.resize(static_cast<size_t>(config.layers));
  for (DecoderBlockWeights<T>& block : model.blocks_) block.attention.heads = config.heads;
  model.name_parameters();
  // 3. The values, moved in, each of the shape the seeded constructor would give it. The
  //    messages are those of load_language_model_weights (lm_weights.hpp).
  const std::vector<Parameter<T>*> params = model.parameters();
  const char* where = "language model weights";
  if (values.size() != params.size()) {
    detail::fail(where, "the weights hold " + std::to_string(values.size()) +
                            " parameters, the model " + std::to_string(params.size()));
  }
  const std::vector<std::pair<int, int>> shapes = language_model_parameter_shapes(config);
  for (size_t i = 0; i < params.size(); ++i) {
    if (values[i].rows() != shapes[i].first || values[i].cols() != shapes[i].second) {
      detail::fail(where, "parameter " + params[i]->name + " has another shape");
    }
    params[i]->value = std::move(values[i]);
  }
  return model;
}

template <typename T>
std::vector<Parameter<T>*> LanguageModel<T>::parameters() {
  std::vector<Parameter<T>*> list{&input_w_, &input_b_, &positions_};
  for (DecoderBlockWeights<T>& block : blocks_) {
    const auto own = block.parameters();
    list.insert(list.end(), own.begin(), own.end());
  }
  list.insert(list.end(), {&final_norm_.gain, &final_norm_.bias, &output_w_, &output_b_});
  return list;
}

template <typename T>
void LanguageModel<T>::zero_grad() {
  for (Parameter<T>* p : parameters()) p->zero_grad();
}

// tokens: (n) -> logits: (n or 1, vocab)
template <typename T>
LanguageModelPass<T> LanguageModel<T>::forward(const std::vector<int>& tokens,
                                               LogitRows rows) const {
  return forward_rows(tokens, 0, rows, {});
}

// tokens: (n), past[l]: (first, d_model) each -> logits: (n - first or 1, vocab)
template <typename T>
LanguageModelPass<T> LanguageModel<T>::forward_rows(
    const std::vector<int>& tokens, Eigen::Index first, LogitRows rows,
    const std::vector<PastKeysValues<T>>& past) const {
  const auto n = static_cast<Eigen::Index>(tokens.size());
  if (n < 1 || n > config_.context) {
    detail::fail(kWhere, "a sequence needs 1 to " + std::to_string(config_.context) +
                             " tokens (the context), got " + std::to_string(n));
  }
  LanguageModelPass<T> pass;
  pass.tokens = tokens;
  pass.rows = rows;
  // 1. Look up the frozen word vectors of the rows computed: (n - first, d_embed).
  MatrixT<T> embedded(n - first, config_.d_embed);
  for (Eigen::Index i = 0; i < n; ++i) {
    const int id = tokens[static_cast<size_t>(i)];
    if (id < 0 || id >= config_.vocab) {
      detail::fail(kWhere, "tokens[" + std::to_string(i) + "] = " + std::to_string(id) +
                               " is not a word id in [0, " + std::to_string(config_.vocab) + ")");
    }
    if (i >= first) embedded.row(i - first) = word_vectors_.row(id);
  }
  // 2. Into the residual stream's width, plus the learned position of each row: (n - first,
  //    d_model).
  pass.input = detail::dense_linear_forward(std::move(embedded), input_w_, &input_b_);
  pass.x0 = pass.input.y + positions_.value.middleRows(first, n - first);
  // 3. The decoder blocks, each (n, d_model) -> (n, d_model).
  pass.blocks.reserve(blocks_.size());
  //    For the last position only, the last block stops at its last row once every head's
  //    weights are known: the other rows' outputs would feed nothing.
  const MatrixT<T>* x = &pass.x0;
  for (size_t l = 0; l < blocks_.size(); ++l) {
    const bool last_block = l + 1 == blocks_.size();
    const OutputRows block_rows = last_block && rows == LogitRows::last_position
                                      ? OutputRows::last_position
                                      : OutputRows::every_position;
    const PastKeysValues<T>* block_past = past.empty() ? nullptr : &past[l];
    pass.blocks.push_back(decoder_block_forward(*x, blocks_[l], block_rows, block_past));
    x = &pass.blocks.back().y();
  }
  // 4. A last layer norm: the pre-LN blocks leave the stream itself unnormalised. (rows, d_model)
  pass.final_norm = layer_norm_forward(*x, final_norm_);
  // 5. The tied output: project to the word vectors' width, then score every word by its dot
  //    product with its own frozen vector, plus a learned bias per word: (rows, vocab). This
  //    product (rows x d_embed x vocab) is by far the largest of the model.
  pass.projection = detail::dense_linear_forward<T>(pass.final_norm.y, output_w_, nullptr);
  pass.logits = detail::times_transposed(pass.projection.y, word_vectors_);
  pass.logits.rowwise() += output_b_.value.row(0);
  return pass;
}

// tokens: (n) -> weights (layers * heads * n * n), logits (1, vocab)
template <typename T>
LanguageModelReading<T> LanguageModel<T>::read(const std::vector<int>& tokens,
                                               LanguageModelReading<T> before) const {
  const size_t layers = blocks_.size(), heads = static_cast<size_t>(config_.heads);
  const size_t kept = before.tokens.size(), n = tokens.size();
  const auto d = static_cast<Eigen::Index>(config_.d_model);
  const auto fits = [&](const std::vector<MatrixT<T>>& rows) {
    if (rows.size() != layers) return false;
    for (const MatrixT<T>& m : rows) {
      if (m.rows() != static_cast<Eigen::Index>(kept) || m.cols() != d) return false;
    }
    return true;
  };
  if (kept > 0 && !(fits(before.keys) && fits(before.values) &&
                    before.weights.size() == layers * heads * kept * kept)) {
    detail::fail(kWhere, "the reading before is not one of a model of this shape");
  }
  // 1. The positions that keep their rows: those before the first token that differs, and never
  //    the last, whose logits are the reading's.
  size_t first = 0;
  const size_t limit = std::min(kept, n > 0 ? n - 1 : 0);
  while (first < limit && before.tokens[first] == tokens[first]) ++first;
  const auto past_rows = static_cast<Eigen::Index>(first);
  std::vector<PastKeysValues<T>> past(first > 0 ? layers : 0);
  for (size_t l = 0; l < past.size(); ++l) {
    past[l].keys = before.keys[l].topRows(past_rows);
    past[l].values = before.values[l].topRows(past_rows);
  }
  //    What is not kept goes before the pass allocates its own.
  before.keys.clear();
  before.values.clear();
  if (first == 0) before = LanguageModelReading<T>{};
  // 2. The other positions' rows, attending to the kept ones too.
  LanguageModelPass<T> pass = forward_rows(tokens, past_rows, LogitRows::last_position, past);
  // 3. Kept rows above computed ones: keys and values (n, d_model) per block, and each head's
  //    weights (n, n), whose kept rows are 0 past the kept positions (no position sees a later).
  //    A text read whole takes the pass's own.
  LanguageModelReading<T> reading;
  reading.tokens = tokens;
  if (first == 0)
    reading.weights = pass.all_attention_weights();
  else
    reading.weights.assign(layers * heads * n * n, T(0));
  for (size_t l = 0; l < layers; ++l) {
    AttentionLayerPass<T>& attention = pass.blocks[l].self_attention.attention;
    PastKeysValues<T>* kept_rows = first > 0 ? &past[l] : nullptr;
    for (auto [kept_part, computed, all] :
         {std::tuple{kept_rows ? &kept_rows->keys : nullptr, &attention.key.y, &reading.keys},
          std::tuple{kept_rows ? &kept_rows->values : nullptr, &attention.value.y,
                     &reading.values}}) {
      if (!kept_part) {
        all->push_back(std::move(*computed));
        continue;
      }
      MatrixT<T> rows(static_cast<Eigen::Index>(n), d);
      rows.topRows(past_rows) = *kept_part;
      rows.bottomRows(computed->rows()) = *computed;
      all->push_back(std::move(rows));
    }
    for (size_t j = 0; j < heads && first > 0; ++j) {
      T* to = reading.weights.data() + (l * heads + j) * n * n;
      const T* from = before.weights.data() + (l * heads + j) * kept * kept;
      for (size_t i = 0; i < first; ++i) {
        std::copy(from + i * kept, from + i * kept + i + 1, to + i * n);
      }
      const MatrixT<T>& computed = attention.heads[j].weights;  // (n - first, n)
      std::copy(computed.data(), computed.data() + computed.size(), to + first * n);
    }
  }
  reading.logits = std::move(pass.logits);
  return reading;
}

// d_logits: (rows, vocab)
template <typename T>
void LanguageModel<T>::backward(const LanguageModelPass<T>& pass, const MatrixT<T>& d_logits) {
  if (pass.rows != LogitRows::every_position) {
    detail::fail(kWhere,
                 "a pass of the last position's logits alone kept too little to go back; "
                 "backward needs a pass of every position");
  }
  if (d_logits.rows() != pass.logits.rows() || d_logits.cols() != pass.logits.cols()) {
    detail::fail(kWhere, "d_logits is " + shape_of(d_logits.rows(), d_logits.cols()) +
                             " but the logits are " +
                             shape_of(pass.logits.rows(), pass.logits.cols()));
  }
  // A model built from_weights() has no gradients until now.
  for (Parameter<T>* p : parameters()) {
    if (p->grad.rows() != p->value.rows() || p->grad.cols() != p->value.cols()) p->zero_grad();
  }
  const Eigen::Index n = pass.x0.rows();
  // 1. logits = z E^T + b: dL/db = column sums of d_logits, dL/dz = d_logits E (E is frozen,
  //    so no dL/dE is formed: that would be another product as large as the forward one).
  output_b_.grad += d_logits.colwise().sum();
  const MatrixT<T> dz = detail::times(d_logits, word_vectors_);
  // 2. z = h W_out, back to the final norm's rows.
  const MatrixT<T> dh = detail::dense_linear_backward<T>(pass.projection, dz, output_w_, nullptr);
  // 3. Back through the final norm and the blocks, last to first.
  MatrixT<T> dx = layer_norm_backward(pass.final_norm, dh, final_norm_);
  for (size_t l = blocks_.size(); l-- > 0;) {
    dx = decoder_block_backward(pass.blocks[l], dx, blocks_[l]);
  }
  // 4. x0 = E[t] W_in + b_in + P: position i's row of P gets row i of dx.
  positions_.grad.topRows(n) += dx;
  detail::dense_linear_backward(pass.input, dx, input_w_, &input_b_);
}

template <typename T>
T LanguageModel<T>::loss(const std::vector<std::vector<int>>& inputs,
                         const std::vector<std::vector<int>>& targets) const {
  const int counted = counted_targets(inputs, targets, config_.vocab);
  T total = 0;
  int rows = 0;
  for (size_t s = 0; s < inputs.size(); ++s) {
    if (!any_counted(targets[s])) continue;
    LanguageModelPass<T> pass = forward(inputs[s]);
    total += softmax_cross_entropy_in_place(pass.logits, targets[s], T(1), &rows);
  }
  return total / static_cast<T>(counted);
}

template <typename T>
T LanguageModel<T>::loss_and_backward(const std::vector<std::vector<int>>& inputs,
                                      const std::vector<std::vector<int>>& targets) {
  const int counted = counted_targets(inputs, targets, config_.vocab);
  T total = 0;
  int rows = 0;
  for (size_t s = 0; s < inputs.size(); ++s) {
    if (!any_counted(targets[s])) continue;
    // 1. One sequence at a time: its (n, vocab) logits are the largest matrix of the step, and
    //    only one sequence's exist at a time.
    LanguageModelPass<T> pass = forward(inputs[s]);
    // 2. The logits become dL/dlogits in place. The batch's mean weighs each counted row by
    //    1 / counted over the whole batch: the sequence's own mean, times (rows counted here) /
    //    (rows counted in the batch), which the scale does once the rows here are known.
    const std::vector<int>& t = targets[s];
    const auto here = static_cast<T>(
        std::count_if(t.begin(), t.end(), [](int id) { return id != kIgnoredTarget; }));
    total += softmax_cross_entropy_in_place(pass.logits, t, here / static_cast<T>(counted), &rows);
    // 3. Back through the model, adding into every parameter's gradient.
    backward(pass, pass.logits);
  }
  return total / static_cast<T>(counted);
}

template class LanguageModel<float>;
template class LanguageModel<double>;

}  // namespace attn

// Batches, schedule and steps for training a LanguageModel (lm_training.hpp).
#include "attn/lm_training.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "attn/lm_analysis.hpp"
#include "attn/loss.hpp"
#include "attn/random.hpp"
#include "checks.hpp"

namespace attn {

namespace {

constexpr std::uint64_t kBatchStream = 1000;

}  // namespace

void check_training_options(const LanguageModelTrainingOptions& o, int context, int words) {
  const char* where = "language model training";
  check_schedule(where, schedule_of(o));
  if (o.batch < 1 || o.batch > 4096) detail::fail(where, "batch must be from 1 to 4096");
  if (!(o.repeat_fraction >= 0 && o.repeat_fraction <= 1)) {
    detail::fail(where, "the repeated fraction must be in [0, 1]");
  }
  if (o.min_run < 2 || o.min_run > o.max_run || o.max_run > std::min(words, context)) {
    detail::fail(where, "repeated runs need 2 <= min_run <= max_run <= min(words, context) = " +
                            std::to_string(std::min(words, context)));
  }
}

int repeated_rows_per_batch(const LanguageModelTrainingOptions& o) {
  return static_cast<int>(std::lround(o.repeat_fraction * static_cast<double>(o.batch)));
}

LanguageModelBatches::LanguageModelBatches(std::vector<std::vector<int>> samples, int context,
                                           int words, const LanguageModelTrainingOptions& options)
    : samples_(std::move(samples)),
      context_(context),
      words_(words),
      options_(options),
      rng_(derive_seed(options.seed, kBatchStream)) {
  check_training_options(options, context, words);
  for (std::size_t s = 0; s < samples_.size(); ++s) {
    for (const int id : samples_[s]) {
      if (id < 0 || id > words) {
        detail::fail("language model training", "a sample holds id " + std::to_string(id) +
                                                    ", outside [0, " + std::to_string(words) + "]");
      }
    }
    const long starts = static_cast<long>(samples_[s].size()) - context;
    if (starts > 0) {
      starts_ += starts;
      cumulative_.push_back({starts_, s});
    }
  }
  if (starts_ == 0) {
    detail::fail("language model training",
                 "no sample is longer than the context of " + std::to_string(context) + " tokens");
  }
}

// (context + 1) consecutive ids of one sample.
std::vector<int> LanguageModelBatches::window() {
  const std::uint64_t r = (static_cast<std::uint64_t>(rng_.next_u32()) << 32) | rng_.next_u32();
  const long k = static_cast<long>(r % static_cast<std::uint64_t>(starts_));
  // The first entry whose running count of starts exceeds k.
  const auto it = std::upper_bound(
      cumulative_.begin(), cumulative_.end(), k,
      [](long value, const std::pair<long, std::size_t>& entry) { return value < entry.first; });
  const long before = it == cumulative_.begin() ? 0 : std::prev(it)->first;
  const std::vector<int>& sample = samples_[it->second];
  const long start = k - before;
  return {sample.begin() + start, sample.begin() + start + context_ + 1};
}

void LanguageModelBatches::next(std::vector<std::vector<int>>& inputs,
                                std::vector<std::vector<int>>& targets) {
  const int rows = options_.batch;
  const int repeated = repeated_rows_per_batch(options_);
  inputs.resize(static_cast<std::size_t>(rows));
  targets.resize(static_cast<std::size_t>(rows));
  for (int b = 0; b < rows; ++b) {
    std::vector<int>& in = inputs[static_cast<std::size_t>(b)];
    std::vector<int>& out = targets[static_cast<std::size_t>(b)];
    if (b < rows - repeated) {
      const std::vector<int> w = window();
      in.assign(w.begin(), w.end() - 1);
      out.assign(w.begin() + 1, w.end());
    } else {
      const int span = options_.max_run - options_.min_run + 1;
      const int run = options_.min_run + static_cast<int>(rng_.next_u32() % span);
      const std::vector<int> phrase =
          options_.repeat_text ? window() : repeated_random_sequence(rng_, run, 0, words_);
      std::vector<int> w;
      for (int i = 0; i <= context_; ++i) w.push_back(phrase[static_cast<std::size_t>(i % run)]);
      in.assign(w.begin(), w.end() - 1);
      out.assign(w.begin() + 1, w.end());
      for (int i = 0; i + 1 < run; ++i) out[static_cast<std::size_t>(i)] = kIgnoredTarget;
    }
  }
}

LanguageModelTraining::LanguageModelTraining(const LanguageModelConfig& config,
                                             MatrixT<float> word_vectors,
                                             std::vector<std::vector<int>> samples,
                                             const LanguageModelTrainingOptions& options)
    : ModelTraining(std::make_unique<LanguageModel<float>>(config, std::move(word_vectors)),
                    schedule_of(options)),
      options_(options),
      batches_(std::move(samples), config.context, config.vocab - 1, options) {}

BatchLoss LanguageModelTraining::forward_backward(Rng& /*dropout: the model has none*/) {
  batches_.next(inputs_, targets_);
  const float loss = model().loss_and_backward(inputs_, targets_);
  long tokens = 0;
  for (const std::vector<int>& row : inputs_) tokens += static_cast<long>(row.size()) + 1;
  return {loss, tokens, 0};
}

HeadMeasurement head_measurement(const std::vector<std::vector<int>>& held_out, int context,
                                 int words, int sequences, std::uint64_t seed, int probe_length) {
  const char* where = "head_measurement";
  if (sequences < 1) detail::fail(where, "sequences must be >= 1");
  if (probe_length < 1) detail::fail(where, "the probe needs at least 1 word");
  if (context < 4) detail::fail(where, "the context must be >= 4 tokens");
  HeadMeasurement m;
  m.copy_length = context / 2;
  if (words < m.copy_length) detail::fail(where, "too few words for the repeated runs");
  for (const std::vector<int>& sample : held_out) {
    if (static_cast<int>(m.text.size()) == sequences) break;
    if (sample.size() < 3) continue;  // pattern scores need rows i >= 2
    m.text.emplace_back(sample.begin(),
                        sample.begin() + std::min<long>(context, static_cast<long>(sample.size())));
  }
  if (m.text.empty()) detail::fail(where, "no held-out sample has 3 or more ids");
  Rng rng(seed);
  for (int i = 0; i < sequences; ++i) {
    m.repeated.push_back(repeated_random_sequence(rng, m.copy_length, 0, words));
  }
  const std::vector<int>& first = m.text.front();
  const long half =
      std::min<long>(std::min(probe_length, m.copy_length), static_cast<long>(first.size()));
  m.probe.assign(first.begin(), first.begin() + half);
  m.probe.insert(m.probe.end(), first.begin(), first.begin() + half);
  return m;
}

std::vector<std::vector<int>> keep_first_words(const std::vector<std::vector<int>>& samples,
                                               int words) {
  std::vector<std::vector<int>> kept = samples;
  for (std::vector<int>& sample : kept) {
    for (int& id : sample) id = std::min(id, words);
  }
  return kept;
}

MatrixT<float> first_word_vectors(const MatrixT<float>& word_vectors, int words) {
  if (words < 1 || words >= word_vectors.rows()) {
    detail::fail("first_word_vectors", "words must be from 1 to " +
                                           std::to_string(word_vectors.rows() - 1) + ", got " +
                                           std::to_string(words));
  }
  MatrixT<float> kept(words + 1, word_vectors.cols());
  kept.topRows(words) = word_vectors.topRows(words);
  kept.row(words) = word_vectors.row(word_vectors.rows() - 1);
  return kept;
}

}  // namespace attn

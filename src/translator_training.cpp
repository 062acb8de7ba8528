#include "attn/translator_training.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>

#include "checks.hpp"

namespace attn {
namespace {

constexpr const char* kWhere = "translator training";

// The pairs in batches of `batch`, in the order of `order`.
std::vector<TranslationBatch> cut_batches(const std::vector<SentencePair>& pairs,
                                          const std::vector<std::size_t>& order, int batch) {
  std::vector<TranslationBatch> batches;
  for (std::size_t first = 0; first < order.size(); first += static_cast<std::size_t>(batch)) {
    TranslationBatch b;
    const std::size_t last = std::min(order.size(), first + static_cast<std::size_t>(batch));
    for (std::size_t i = first; i < last; ++i) {
      b.sources.push_back(pairs[order[i]].english);
      b.targets.push_back(pairs[order[i]].german);
    }
    batches.push_back(std::move(b));
  }
  return batches;
}

void check_batch_size(int batch, const char* where = kWhere) {
  if (batch < 1 || batch > 4096) {
    detail::fail(where, "batch must be from 1 to 4096, got " + std::to_string(batch));
  }
}

}  // namespace

void check_translation_training_options(const TranslatorTrainingOptions& o, const char* where) {
  check_schedule(where, schedule_of(o));
  check_batch_size(o.batch, where);
  if (!(o.dropout >= 0 && o.dropout < 1)) detail::fail(where, "dropout must be in [0, 1)");
}

void check_translator_training_options(const TranslatorTrainingOptions& o) {
  check_translation_training_options(o, kWhere);
}

std::vector<TranslationBatch> batches_in_order(const std::vector<SentencePair>& pairs, int batch) {
  check_batch_size(batch);
  std::vector<std::size_t> order(pairs.size());
  std::iota(order.begin(), order.end(), 0);
  return cut_batches(pairs, order, batch);
}

TranslationBatches::TranslationBatches(const std::vector<SentencePair>& pairs, int batch,
                                       std::uint64_t seed)
    : rng_(seed) {
  check_batch_size(batch);
  if (pairs.empty()) detail::fail(kWhere, "there are no pairs to train on");
  std::vector<std::size_t> by_length(pairs.size());
  std::iota(by_length.begin(), by_length.end(), 0);
  std::sort(by_length.begin(), by_length.end(), [&](std::size_t a, std::size_t b) {
    const auto key = [&](std::size_t i) {
      return std::make_tuple(pairs[i].english.size(), pairs[i].german.size(), i);
    };
    return key(a) < key(b);
  });
  batches_ = cut_batches(pairs, by_length, batch);
  order_.resize(batches_.size());
  position_ = order_.size();  // the first call starts the first epoch
}

const TranslationBatch& TranslationBatches::next() {
  if (position_ == order_.size()) {
    // A new epoch: Fisher-Yates over the batches with the seeded generator.
    std::iota(order_.begin(), order_.end(), 0);
    for (std::size_t i = order_.size(); i > 1; --i) {
      const auto j = static_cast<std::size_t>(rng_.next_u32() % i);
      std::swap(order_[i - 1], order_[j]);
    }
    position_ = 0;
    ++epochs_;
  }
  return batches_[order_[position_++]];
}

namespace {

// The tag of the batch order's stream (attn/random.hpp's derive_seed); the dropout masks come
// from the loop's stream, kDropoutStream.
constexpr std::uint64_t kBatchStream = 1;

const TranslatorTrainingOptions& checked(const TranslatorTrainingOptions& o) {
  check_translator_training_options(o);
  return o;
}

}  // namespace

TranslatorTraining::TranslatorTraining(const TranslatorConfig& config, MatrixT<float> word_vectors,
                                       const std::vector<SentencePair>& pairs,
                                       const TranslatorTrainingOptions& options)
    : ModelTraining(std::make_unique<Translator<float>>(config, std::move(word_vectors)),
                    schedule_of(checked(options))),
      options_(options),
      batches_(pairs, options.batch, derive_seed(options.seed, kBatchStream)) {}

BatchLoss TranslatorTraining::forward_backward(Rng& dropout) {
  const TranslationBatch& batch = batches_.next();
  const TranslatorPass<float> pass = model().forward(batch, options_.dropout, &dropout);
  model().backward(pass);
  long tokens = pass.counted;
  for (const auto& s : batch.sources) tokens += static_cast<long>(s.size());
  return {pass.loss, tokens, batches_.epochs_started()};
}

HeldOutLoss held_out_loss(const Translator<float>& model, const std::vector<SentencePair>& pairs,
                          int batch) {
  return mean_held_out_loss(model, pairs, batch);
}

}  // namespace attn

#include "attn/trainer.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "checks.hpp"

namespace attn {
namespace {

constexpr const char* kWhere = "training";

// Stream tags: training batches come from the training seed; the held-out sets and the sample
// inputs of the attention map from fixed seeds of their own, the same for every model and seed,
// so that any two models are compared on the same sequences.
constexpr std::uint64_t kBatchTag = 100;
constexpr std::uint64_t kHeldOutSeed = 0x5eed'0f'7e57ull;
constexpr std::uint64_t kSampleSeed = 0x5eed'0f'5a3bull;
// Held-out sequences per forward pass: bounds the memory a large evaluation takes.
constexpr int kEvaluationChunk = 256;

void check_setting(const char* name, double value, double lowest, double highest,
                   bool open_low = false) {
  const bool ok = (open_low ? value > lowest : value >= lowest) && value <= highest;
  if (!ok) {
    auto text = [](double x) {
      std::string s = std::to_string(x);
      // Whole numbers without the trailing ".000000".
      if (std::fabs(x) < 1e15 && x == std::floor(x)) s = std::to_string(static_cast<long long>(x));
      return s;
    };
    detail::fail(kWhere, std::string(name) + " must be " + (open_low ? "> " : "from ") +
                             text(lowest) + (open_low ? " and <= " : " to ") + text(highest) +
                             ", got " + text(value));
  }
}

void check_length(const char* where, int length) {
  if (length < 1 || length > kMaxSequenceLength) {
    detail::fail(where, "length must be from 1 to " + std::to_string(kMaxSequenceLength) +
                            ", got " + std::to_string(length));
  }
}

ModelOptions model_options(const TrainingOptions& o) {
  ModelOptions m;
  m.kind = o.model;
  m.scoring = o.scoring;
  m.d_model = o.d_model;
  m.d_k = o.d_k == 0 ? o.d_model : o.d_k;
  m.vocab = o.vocab;
  m.seed = o.seed;
  return m;
}

}  // namespace

void validate(const TrainingOptions& o) {
  if (o.model != Bridge::fixed_vector && o.model != Bridge::attention) {
    detail::fail(kWhere, "model must be fixed or attention");
  }
  if (o.scoring != Scoring::additive && o.scoring != Scoring::dot &&
      o.scoring != Scoring::scaled_dot) {
    detail::fail(kWhere, "scoring must be additive, dot or scaled_dot");
  }
  check_setting("d_model", o.d_model, 2, 256);
  if (o.d_k != 0) check_setting("d_k", o.d_k, 1, 1024);
  check_setting("vocab", o.vocab, 2, 64);
  check_setting("min_length", o.min_length, 1, kMaxSequenceLength);
  check_setting("max_length", o.max_length, o.min_length, kMaxSequenceLength);
  check_setting("batch", o.batch, 1, 512);
  check_setting("learning_rate", o.learning_rate, 0, 1, true);
  check_setting("clip", o.clip, 0, 1000);
}

namespace {

std::unique_ptr<Seq2Seq<float>> checked_model(const TrainingOptions& options) {
  validate(options);
  return std::make_unique<Seq2Seq<float>>(model_options(options));
}

// No warm-up and no decay.
TrainingSchedule constant_rate(const TrainingOptions& options) {
  TrainingSchedule constant;
  constant.learning_rate = options.learning_rate;
  constant.clip = options.clip;
  return constant;
}

}  // namespace

Trainer::Trainer(const TrainingOptions& options)
    : ModelTraining(checked_model(options), constant_rate(options)),
      options_(options),
      batches_(derive_seed(options.seed, kBatchTag)) {}

BatchLoss Trainer::forward_backward(Rng& /*dropout: the reversal models have none*/) {
  const ReversalBatch batch = draw_reversal_batch(batches_, options_.batch, options_.vocab,
                                                  options_.min_length, options_.max_length);
  const Seq2SeqPass<float> pass = model().forward(batch);
  model().backward(pass);
  long tokens = 0;  // each sequence and its reversal
  for (const int length : batch.lengths) tokens += 2L * length;
  return {pass.loss, tokens, 0};
}

std::vector<float> Trainer::step(int n) {
  if (n < 1 || n > 100000) {
    detail::fail(kWhere, "step: n must be from 1 to 100000, got " + std::to_string(n));
  }
  std::vector<float> losses;
  losses.reserve(static_cast<size_t>(n));
  for (int s = 0; s < n; ++s) losses.push_back(ModelTraining::step().loss);
  return losses;
}

std::vector<LengthAccuracy> Trainer::evaluate(const std::vector<int>& lengths, int samples) const {
  constexpr const char* kEvaluate = "training: evaluate";
  if (lengths.empty() || lengths.size() > kMaxSequenceLength) {
    detail::fail(kEvaluate, "lengths must list 1 to " + std::to_string(kMaxSequenceLength) +
                                " lengths, got " + std::to_string(lengths.size()));
  }
  for (const int length : lengths) check_length(kEvaluate, length);
  if (samples < 1 || samples > 10000) {
    detail::fail(kEvaluate, "samples must be from 1 to 10000, got " + std::to_string(samples));
  }
  std::vector<LengthAccuracy> result;
  for (const int length : lengths) {
    Rng rng(derive_seed(kHeldOutSeed, static_cast<std::uint64_t>(length)));
    long whole = 0, symbols = 0;
    double loss = 0;
    for (int done = 0; done < samples; done += kEvaluationChunk) {
      const int count = std::min(kEvaluationChunk, samples - done);
      const ReversalBatch batch = draw_reversal_batch(rng, count, options_.vocab, length);
      const Seq2SeqPass<float> pass = model().forward(batch);
      loss += static_cast<double>(pass.loss) * count;
      for (int b = 0; b < count; ++b) {
        int right = 0;
        for (int t = 0; t < length; ++t) {
          const size_t r = static_cast<size_t>(b) * length + t;
          right += pass.predictions[r] == batch.targets[r];
        }
        symbols += right;
        whole += right == length;
      }
    }
    LengthAccuracy accuracy;
    accuracy.length = length;
    accuracy.loss = loss / samples;
    accuracy.sequence_accuracy = static_cast<double>(whole) / samples;
    accuracy.symbol_accuracy =
        static_cast<double>(symbols) / (static_cast<double>(samples) * length);
    result.push_back(accuracy);
  }
  return result;
}

AttentionMap Trainer::attention_map(int length) const {
  constexpr const char* kMap = "training: attention map";
  check_length(kMap, length);
  if (options_.model != Bridge::attention) {
    detail::fail(kMap,
                 "the fixed-vector model has no cross-attention: its decoder sees one vector, "
                 "not the encoder states");
  }
  Rng rng(derive_seed(kSampleSeed, static_cast<std::uint64_t>(length)));
  const ReversalBatch batch = draw_reversal_batch(rng, 1, options_.vocab, length);
  const Seq2SeqPass<float> pass = model().forward(batch);
  AttentionMap map;
  map.length = length;
  map.input = batch.inputs;
  map.target = batch.targets;
  map.output = pass.predictions;
  map.weights = pass.attention.front().weights;
  return map;
}

}  // namespace attn

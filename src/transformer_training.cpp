#include "attn/transformer_training.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "checks.hpp"

namespace attn {
namespace {

constexpr const char* kWhere = "transformer training";

// The tag of the batch order's stream, as the translators' (translator_training.cpp); the dropout
// masks come from the loop's stream, kDropoutStream.
constexpr std::uint64_t kBatchStream = 1;

const TransformerTrainingOptions& checked(const TransformerTrainingOptions& o) {
  check_transformer_training_options(o);
  return o;
}

}  // namespace

void check_transformer_training_options(const TransformerTrainingOptions& o) {
  check_translation_training_options(o, kWhere);
  if (!(o.label_smoothing >= 0 && o.label_smoothing < 1)) {
    detail::fail(kWhere, "label_smoothing must be in [0, 1)");
  }
}

TransformerTraining::TransformerTraining(const TransformerTranslatorConfig& config,
                                         MatrixT<float> word_vectors,
                                         const std::vector<SentencePair>& pairs,
                                         const TransformerTrainingOptions& options)
    : ModelTraining(std::make_unique<TransformerTranslator<float>>(config, std::move(word_vectors)),
                    schedule_of(checked(options))),
      options_(options),
      batches_(pairs, options.batch, derive_seed(options.seed, kBatchStream)) {}

BatchLoss TransformerTraining::forward_backward(Rng& dropout) {
  const TranslationBatch& batch = batches_.next();
  const TransformerTranslatorPass<float> pass =
      model().forward(batch, options_.dropout, &dropout, options_.label_smoothing);
  model().backward(pass);
  long tokens = pass.counted;
  for (const auto& s : batch.sources) tokens += static_cast<long>(s.size());
  return {pass.loss, tokens, batches_.epochs_started()};
}

// pairs: (P) -> the mean loss over their tokens, in batches of `batch` in their order
HeldOutLoss held_out_loss(const TransformerTranslator<float>& model,
                          const std::vector<SentencePair>& pairs, int batch) {
  return mean_held_out_loss(model, pairs, batch);
}

}  // namespace attn

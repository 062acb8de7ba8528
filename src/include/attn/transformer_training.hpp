// Training a TransformerTranslator on sentence pairs, on the shared training loop
// (training_loop.hpp: the schedule, Adam, clipping, dropout masks) with the translators' batches
// (translator_training.hpp's TranslationBatches). `attn_train transformer` trains it
// (docs/transformer.md).
#pragma once

#include <cstdint>
#include <vector>

#include "attn/training_loop.hpp"
#include "attn/transformer_translator.hpp"
#include "attn/translator_training.hpp"

namespace attn {

// The recurrent translators' options (the schedule, batch, seed and dropout) with the Transformer's
// own defaults, and its label smoothing.
struct TransformerTrainingOptions : TranslatorTrainingOptions {
  double label_smoothing = 0;  // TransformerTranslator::forward's while training, in [0, 1)

  TransformerTrainingOptions() {
    learning_rate = 1e-3;  // the peak
    warmup = 1000;         // steps of linear warm-up to the peak
  }
};

// Throws InvalidArgument on what check_translator_training_options refuses (naming the transformer
// training), or label smoothing outside [0, 1).
void check_transformer_training_options(const TransformerTrainingOptions& options);

// A Transformer translator and its batches on the shared training loop.
class TransformerTraining final : public ModelTraining<TransformerTranslator<float>> {
 public:
  // The model starts from config.seed; the batch order (derive_seed(options.seed, 1), as the
  // translators') and the dropout masks (the loop's stream) from options.seed. Throws
  // InvalidArgument as the model, the options check and TranslationBatches do.
  TransformerTraining(const TransformerTranslatorConfig& config, MatrixT<float> word_vectors,
                      const std::vector<SentencePair>& pairs,
                      const TransformerTrainingOptions& options);

  // The next batch's mean (smoothed) cross-entropy per German piece (and </s>) and its gradient,
  // with dropout at the options' rate; its tokens are the English and German tokens read.
  BatchLoss forward_backward(Rng& dropout) override;
  long epochs_started() const { return batches_.epochs_started(); }

 private:
  TransformerTrainingOptions options_;
  TranslationBatches batches_;
};

// The mean cross-entropy (not smoothed) per German piece (and </s>) of `pairs`, in batches of
// `batch` in their order, and the number of tokens it counts: exp(loss) is the held-out
// perplexity, comparable with the recurrent translators'. Throws InvalidArgument on a batch
// outside [1, 4096].
HeldOutLoss held_out_loss(const TransformerTranslator<float>& model,
                          const std::vector<SentencePair>& pairs, int batch);

}  // namespace attn

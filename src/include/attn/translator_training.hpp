// Training a Translator on sentence pairs: batches of pairs of similar length and the held-out
// loss, on the shared training loop (training_loop.hpp: the schedule, Adam, clipping, dropout
// masks). `attn_train translation` trains the page's two models with it (docs/translation.md).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "attn/random.hpp"
#include "attn/training_loop.hpp"
#include "attn/translation_corpus.hpp"
#include "attn/translator.hpp"

namespace attn {

struct TranslatorTrainingOptions {
  long steps = 10000;              // the schedule's length
  int batch = 64;                  // pairs per step
  double learning_rate = 2e-3;     // the peak
  long warmup = 200;               // steps of linear warm-up to the peak
  double final_lr_fraction = 0.1;  // the cosine decays to this fraction of the peak
  double clip = 1.0;               // global gradient norm, 0 = off
  std::uint64_t seed = 1;          // of the batch order and dropout (the weights: config.seed)
  double dropout = 0;              // the model's forward rate while training, in [0, 1)
};

// Throws InvalidArgument on a schedule check_schedule refuses, batch outside [1, 4096], or dropout
// outside [0, 1).
void check_translator_training_options(const TranslatorTrainingOptions& options);

// The same checks, naming `where`: every translation model's training starts from them.
void check_translation_training_options(const TranslatorTrainingOptions& options,
                                        const char* where);

// pairs: (P) -> the pairs in batches of `batch` in their order, the last one shorter when batch
// does not divide P: the held-out losses read them so. Throws InvalidArgument on a batch outside
// [1, 4096].
std::vector<TranslationBatch> batches_in_order(const std::vector<SentencePair>& pairs, int batch);

// Cuts the pairs into batches of pairs of similar length and hands them out in a seeded random
// order, epoch after epoch. Sorting by (English length, German length, index) before cutting keeps
// the padding small; the order of the batches, not their content, changes from epoch to epoch.
class TranslationBatches {
 public:
  // Throws InvalidArgument on no pairs, or a batch size outside [1, 4096].
  TranslationBatches(const std::vector<SentencePair>& pairs, int batch, std::uint64_t seed);

  // The next batch; a new epoch starts with a new order when the last one is used up.
  const TranslationBatch& next();
  long epochs_started() const { return epochs_; }
  std::size_t batches_per_epoch() const { return batches_.size(); }

 private:
  std::vector<TranslationBatch> batches_;
  std::vector<std::size_t> order_;
  std::size_t position_ = 0;
  long epochs_ = 0;
  Rng rng_;
};

// A translator and its batches on the shared training loop.
class TranslatorTraining final : public ModelTraining<Translator<float>> {
 public:
  // The model starts from config.seed; the batch order and the dropout masks come from
  // options.seed (two streams, so that the masks do not move the order). Throws
  // InvalidArgument as the Translator, the options check and TranslationBatches do.
  TranslatorTraining(const TranslatorConfig& config, MatrixT<float> word_vectors,
                     const std::vector<SentencePair>& pairs,
                     const TranslatorTrainingOptions& options);

  // The next batch's mean cross-entropy per German token (and </s>) and gradient, with dropout
  // at the options' rate; its tokens are the English and German tokens read.
  BatchLoss forward_backward(Rng& dropout) override;
  long epochs_started() const { return batches_.epochs_started(); }

 private:
  TranslatorTrainingOptions options_;
  TranslationBatches batches_;
};

// The mean cross-entropy per German token (and </s>) of `pairs`, in batches of `batch`, and the
// number of tokens it counts: exp(loss) is the held-out perplexity.
struct HeldOutLoss {
  double loss = 0;
  long tokens = 0;
};
HeldOutLoss held_out_loss(const Translator<float>& model, const std::vector<SentencePair>& pairs,
                          int batch);

// held_out_loss of any translation model whose forward(batch) returns a pass with the mean `loss`
// over the `counted` tokens: the pairs in batches_in_order, each batch's mean weighted by its
// tokens. Throws InvalidArgument on a batch outside [1, 4096].
template <typename Model>
HeldOutLoss mean_held_out_loss(const Model& model, const std::vector<SentencePair>& pairs,
                               int batch) {
  HeldOutLoss out;
  double total = 0;
  for (const TranslationBatch& b : batches_in_order(pairs, batch)) {
    const auto pass = model.forward(b);
    total += static_cast<double>(pass.loss) * pass.counted;
    out.tokens += pass.counted;
  }
  out.loss = out.tokens > 0 ? total / static_cast<double>(out.tokens) : 0;
  return out;
}

}  // namespace attn

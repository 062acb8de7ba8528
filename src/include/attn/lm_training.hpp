// Training a LanguageModel on a corpus: its batches (windows of running text and rows of random
// words repeated) on the shared training loop (training_loop.hpp: the schedule, Adam, clipping).
// `attn_train language-model` trains the page's model with it natively; the wasm binding trains a
// smaller sibling with it in the page's worker. docs/language-model.md ("Training it", "Training
// it live") gives the settings.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "attn/language_model.hpp"
#include "attn/random.hpp"
#include "attn/training_loop.hpp"

namespace attn {

struct LanguageModelTrainingOptions {
  long steps = 2500;               // the schedule's length (training may stop earlier)
  int batch = 32;                  // sequences per step
  double learning_rate = 3e-3;     // the peak
  long warmup = 100;               // steps of linear warm-up to the peak
  double final_lr_fraction = 0.1;  // the cosine decays to this fraction of the peak
  double clip = 1.0;               // global gradient norm, 0 = off
  double repeat_fraction = 0.15;   // share of each batch that is random words repeated
  int min_run = 5, max_run = 32;   // length of those runs of distinct words
  bool repeat_text = false;        // repeat a run of running text instead of random words
  std::uint64_t seed = 1;          // of the batch stream (the weights have config.seed)
};

// Throws InvalidArgument on options out of range for a model of `context` tokens and `words`
// predictable ids: the schedule's as check_schedule says, batch in [1, 4096], repeat fraction in
// [0, 1], 2 <= min_run <= max_run <= min(words, context).
void check_training_options(const LanguageModelTrainingOptions& options, int context, int words);

// The number of rows of each batch that are random words repeated: round(fraction * batch).
int repeated_rows_per_batch(const LanguageModelTrainingOptions& options);

// Draws each step's batch from its own seeded stream. Of `batch` rows, the first
// batch - repeated_rows_per_batch are windows of context + 1 consecutive tokens of one sample
// (every start of every sample longer than the context equally likely): the first context are
// the input, the last context the targets. The rest are a run of L distinct ids (L uniform in
// [min_run, max_run]) drawn from [0, words) (or, with repeat_text, the first L ids of a window
// drawn as above), repeated to fill context + 1 tokens, the targets of the first copy but its
// last ignored (what the repetition teaches is to predict the second copy from the first).
class LanguageModelBatches {
 public:
  // samples: runs of ids in [0, words] (words is the unknown id). Throws InvalidArgument when no
  // sample is longer than the context, or on options check_training_options refuses.
  LanguageModelBatches(std::vector<std::vector<int>> samples, int context, int words,
                       const LanguageModelTrainingOptions& options);

  // inputs, targets: resized to (batch) rows of (context) ids each and filled.
  void next(std::vector<std::vector<int>>& inputs, std::vector<std::vector<int>>& targets);

 private:
  std::vector<int> window();

  std::vector<std::vector<int>> samples_;
  int context_, words_;
  LanguageModelTrainingOptions options_;
  std::vector<std::pair<long, std::size_t>> cumulative_;  // (starts so far, sample)
  long starts_ = 0;
  Rng rng_;
};

// The language model and its batches on the shared training loop.
class LanguageModelTraining final : public ModelTraining<LanguageModel<float>> {
 public:
  // The model starts from config.seed; the batches come from options.seed. Throws
  // InvalidArgument as LanguageModel and LanguageModelBatches do.
  LanguageModelTraining(const LanguageModelConfig& config, MatrixT<float> word_vectors,
                        std::vector<std::vector<int>> samples,
                        const LanguageModelTrainingOptions& options);

  // The next batch's mean cross-entropy and gradient.
  BatchLoss forward_backward(Rng& dropout) override;
  const LanguageModelTrainingOptions& options() const { return options_; }

 private:
  LanguageModelTrainingOptions options_;
  LanguageModelBatches batches_;
  std::vector<std::vector<int>> inputs_, targets_;
};

// What a training run measures its heads on (measure_heads), fixed for the whole run: the first
// `context` ids (or all, if fewer) of each of the first `sequences` held-out samples of 3 or more
// ids; `sequences` runs of context / 2 distinct random ids from [0, words), each followed by
// itself (drawn from `seed`); and a probe to draw: the first min(probe_length, context / 2, its
// length) ids of the first of those text windows, then the same ids again.
struct HeadMeasurement {
  std::vector<std::vector<int>> text;      // (<= sequences) of <= context ids
  std::vector<std::vector<int>> repeated;  // (sequences) of 2 copy_length ids
  int copy_length = 0;
  std::vector<int> probe;  // (2 L)
};

// Throws InvalidArgument on no held-out sample of at least 3 ids, sequences < 1, context < 4,
// words < context / 2 or probe_length < 1.
HeadMeasurement head_measurement(const std::vector<std::vector<int>>& held_out, int context,
                                 int words, int sequences, std::uint64_t seed, int probe_length);

// samples' ids, with every id >= words (in a vocabulary of more words) made `words`, the unknown
// id of the first `words` words: for a model that keeps only the most frequent words.
std::vector<std::vector<int>> keep_first_words(const std::vector<std::vector<int>>& samples,
                                               int words);

// word_vectors: (vocab, d) whose last row is the unknown word -> (words + 1, d): the first
// `words` rows and that last row. Throws InvalidArgument unless 1 <= words < vocab.
MatrixT<float> first_word_vectors(const MatrixT<float>& word_vectors, int words);

}  // namespace attn

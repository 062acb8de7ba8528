// Training the reversal models of seq2seq.hpp: seeded batches, Adam, gradient clipping, and
// evaluation on a fixed held-out set. The same options and seed give the same losses, bit for bit,
// natively and in wasm (see ordered_math.hpp for how).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "attn/seq2seq.hpp"
#include "attn/training_loop.hpp"

namespace attn {

// Every option and its allowed range (InvalidArgument outside it).
struct TrainingOptions {
  Bridge model = Bridge::attention;
  Scoring scoring = Scoring::scaled_dot;  // attention model only
  int d_model = 32;                       // 2 to 256
  int d_k = 0;                            // 0 = d_model, else 1 to 1024 (attention model only)
  int vocab = 8;                          // 2 to 64 symbols
  int min_length = 2;                     // 1 to max_length
  int max_length = 12;                    // min_length to kMaxSequenceLength (32)
  int batch = 32;                         // 1 to 512 sequences per step
  double learning_rate = 3e-3;            // Adam's, in (0, 1]
  double clip = 1.0;                      // the gradients' global norm limit, 0 (off) to 1000
  std::uint64_t seed = 1;                 // initial weights and the training batches
};

// Throws InvalidArgument naming the first option out of range.
void validate(const TrainingOptions& options);

// Accuracy at one input length on the held-out set.
struct LengthAccuracy {
  int length = 0;
  double loss = 0;               // mean cross-entropy per output symbol
  double sequence_accuracy = 0;  // share of sequences reversed without a single wrong symbol
  double symbol_accuracy = 0;    // share of output symbols that are right
};

// One seeded sample input, what the model makes of it, and where it looked.
struct AttentionMap {
  int length = 0;           // L
  std::vector<int> input;   // (L) symbols
  std::vector<int> target;  // (L) the input reversed
  std::vector<int> output;  // (L) the model's most likely symbol at each output step
  MatrixT<float> weights;   // (L, L) row t: output step t's weights over input positions 0..L-1
};

// The reversal model on the shared training loop (training_loop.hpp), at a constant rate.
class Trainer final : public ModelTraining<Seq2Seq<float>> {
 public:
  // Validates the options and builds the model with seeded initial weights.
  explicit Trainer(const TrainingOptions& options);

  // Runs n steps (1 to 100000) of Adam on fresh seeded batches, each clipped to the global norm
  // limit first; returns each step's loss, computed before its update.
  std::vector<float> step(int n);

  // One fresh seeded batch's loss and gradient.
  BatchLoss forward_backward(Rng& dropout) override;

  // For each length (1 to 32), `samples` (1 to 10000) held-out sequences of that length: how many
  // the model reverses whole, and how many symbols it gets right. The held-out sequences depend
  // on the seed and the length only, so every call (and every lengths list) sees the same ones.
  std::vector<LengthAccuracy> evaluate(const std::vector<int>& lengths, int samples) const;

  // A fixed seeded sample input of the given length (1 to 32) and the cross-attention weights of
  // the attention model on it (rows: output steps, columns: input positions in input order).
  // Throws InvalidArgument for the fixed-vector model, which has no cross-attention to show.
  AttentionMap attention_map(int length) const;

  long steps() const { return steps_taken(); }
  const TrainingOptions& options() const { return options_; }

 private:
  TrainingOptions options_;
  Rng batches_;
};

}  // namespace attn

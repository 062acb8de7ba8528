// What a trained language model's heads do, and how well it predicts held-out text. Definitions
// and thresholds are in docs/language-model.md ("Measuring the heads").
#pragma once

#include <string>
#include <vector>

#include "attn/language_model.hpp"
#include "attn/random.hpp"

namespace attn {

// Mean attention weights of one head, pooled over every counted row of a set of sequences.
struct PatternScores {
  double previous_token = 0;  // weight of row i on column i-1, rows i >= 1
  double first_token = 0;     // weight of row i on column 0, rows i >= 2 (row 1's previous is 0)
  double self = 0;            // weight of row i on column i, rows i >= 1 (row 0 has no choice)
};

// weights: one head's (n_s, n_s) weights on each sequence s (n_s >= 1). Throws InvalidArgument
// on a matrix that is not square or when no row counts for some score.
PatternScores pattern_scores(const std::vector<MatrixT<float>>& weights);

// weights: one head's (2L, 2L) weights on sequences that are L tokens followed by the same L
// tokens again. The mean over sequences and over k = 0 .. L-1 of the weight of row L + k (the
// second occurrence of token k) on column k + 1 (the token after its first occurrence; for
// k = L-1 that is position L, the second copy's first token). Throws InvalidArgument on a
// matrix of another shape or L < 2.
double induction_score(const std::vector<MatrixT<float>>& weights, int copy_length);

// L distinct ids drawn uniformly from [low, high), then the same L again: (2L). Throws
// InvalidArgument unless 1 <= L <= high - low.
std::vector<int> repeated_random_sequence(Rng& rng, int copy_length, int low, int high);

struct HeadScores {
  int layer = 0, head = 0;
  PatternScores pattern;
  double induction = 0;
  std::string kind;  // head_kind(...)
};

// Thresholds of head_kind.
inline constexpr double kInductionThreshold = 0.4;
inline constexpr double kPatternThreshold = 0.5;

// "induction" when induction >= 0.4; else "previous-token", "first-token" or "self" when that
// score is >= 0.5 (the first in this order); else "mixed".
std::string head_kind(const PatternScores& pattern, double induction);

// Every head of every layer (layer-major): the pattern scores on `text` (sequences of <= context
// ids), the induction score on `repeated` (sequences of 2 copy_length ids, each L ids repeated).
std::vector<HeadScores> measure_heads(const LanguageModel<float>& model,
                                      const std::vector<std::vector<int>>& text,
                                      const std::vector<std::vector<int>>& repeated,
                                      int copy_length);

struct Perplexity {
  double mean_nll = 0;    // nats per predicted token
  double perplexity = 0;  // exp(mean_nll)
  long tokens = 0;        // predicted tokens
  long windows = 0;
};

// samples: runs of ids (a corpus split's samples). Each sample of m >= 2 tokens is cut into
// windows of context + 1 tokens starting at 0, context, 2 context, ... (the last one shorter);
// a window's first `context` tokens (or fewer) are the input and each of its positions predicts
// the next token. So every token of a sample but its first is predicted exactly once, with 0 to
// context - 1 tokens of the same sample before it in view. Windows run `batch` at a time.
Perplexity held_out_perplexity(const LanguageModel<float>& model,
                               const std::vector<std::vector<int>>& samples, int batch = 32);

struct NextWord {
  int id = 0;
  double probability = 0;
};

// logits: (rows, vocab), one position's next-token scores in row `row` -> the k ids of highest
// probability under softmax(logits.row(row)), most probable first (ties: the smaller id first),
// with their probabilities (softmax.hpp's row softmax). k is clamped to vocab. Throws
// InvalidArgument on k < 1, a row out of range or a row with no finite entry.
std::vector<NextWord> top_next_words(const MatrixT<float>& logits, int row, int k);

}  // namespace attn

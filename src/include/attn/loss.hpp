// Softmax cross-entropy over classes, with ignored (padded) targets. A template on the scalar
// (float and double, instantiated in loss.cpp); conventions as in layers.hpp.
#pragma once

#include <vector>

#include "attn/layers.hpp"

namespace attn {

// A target of kIgnoredTarget marks a padded row: no loss, no gradient.
constexpr int kIgnoredTarget = -1;

template <typename T>
struct CrossEntropy {
  T loss = 0;                // mean over the counted rows of -log softmax(logits_r)[target_r]
  int counted = 0;           // rows whose target is not ignored
  MatrixT<T> d_logits;       // (n, c) dL/dlogits = (softmax - one_hot) / counted; 0 on ignored rows
  MatrixT<T> probabilities;  // (n, c) softmax of each row
};

// logits: (n, c), targets: (n) classes in [0, c) or kIgnoredTarget -> loss and its gradient.
// Throws InvalidArgument when the sizes differ, a target is out of range, or every row is ignored.
template <typename T>
CrossEntropy<T> softmax_cross_entropy(const MatrixT<T>& logits, const std::vector<int>& targets);

// The same loss for a large number of classes (a language model's vocabulary), in place and
// vectorised. logits: (n, c) is overwritten with scale * dL/dlogits, where L is the mean over
// this call's counted rows (so scale = counted here / counted in the whole batch gives the
// gradient of a batch mean); targets as above. Returns the SUM over counted rows of
// -log softmax(logits_r)[target_r] and sets *counted. No probabilities matrix is kept; the
// softmax is the core's one row softmax (softmax.hpp's), so the gradient has the same bits in
// every build when the logits do.
// With label smoothing s in [0, 1), each counted row's target is the distribution
// q = (1 - s) one_hot(target) + s / c (PyTorch's CrossEntropyLoss(label_smoothing=s)): the row's
// loss is -sum_v q_v log p_v = (1 - s)(-log p_target) + s mean_v(-log p_v), and its gradient
// (p - q) / counted. s = 0 is the plain loss, bit for bit.
// Throws InvalidArgument as softmax_cross_entropy does (except that every row may be ignored:
// then it returns 0 and leaves zeros), on a non-finite logit, or on s outside [0, 1).
template <typename T>
T softmax_cross_entropy_in_place(MatrixT<T>& logits, const std::vector<int>& targets, T scale,
                                 int* counted, T smoothing = 0);

}  // namespace attn

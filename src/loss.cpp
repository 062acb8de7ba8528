#include "attn/loss.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "attn/attention_grad.hpp"
#include "attn/random.hpp"
#include "checks.hpp"
#include "row_softmax.hpp"
#include "simd.hpp"

namespace attn {
namespace {

constexpr const char* kWhere = "softmax cross-entropy";

// log x for x > 0: the portable logarithm, so that the reported loss has the same bits in every
// build (it is only reported: the gradient below needs no logarithm).
float log_of(float x) { return static_cast<float>(portable_log(x)); }
double log_of(double x) { return std::log(x); }

// Whether every entry of row r of the logits is finite: for float a vector at a time (simd.hpp,
// as checks.hpp's require_finite does), for double Eigen's allFinite.
template <typename T>
bool row_finite(const MatrixT<T>& logits, Eigen::Index r) {
  if constexpr (std::is_same_v<T, float>) {
    return simd::all_finite(logits.row(r).data(), static_cast<long>(logits.cols()));
  } else {
    return logits.row(r).allFinite();
  }
}

// targets: (n), each a class in [0, c) or kIgnoredTarget -> how many are not ignored. Throws
// InvalidArgument for a count other than one per row of the (n, c) logits, or a class out of range.
int counted_targets(const std::vector<int>& targets, Eigen::Index n, Eigen::Index c) {
  if (static_cast<Eigen::Index>(targets.size()) != n) {
    detail::fail(kWhere, "logits is " + shape_of(n, c) + " but there are " +
                             std::to_string(targets.size()) + " targets: one per row is needed");
  }
  int counted = 0;
  for (Eigen::Index r = 0; r < n; ++r) {
    const int target = targets[static_cast<size_t>(r)];
    if (target == kIgnoredTarget) continue;
    if (target < 0 || target >= c) {
      detail::fail(kWhere, "targets[" + std::to_string(r) + "] = " + std::to_string(target) +
                               " is neither a class in [0, " + std::to_string(c) +
                               ") nor ignored (" + std::to_string(kIgnoredTarget) + ")");
    }
    ++counted;
  }
  return counted;
}

}  // namespace

// logits: (n, c), targets: (n)
template <typename T>
CrossEntropy<T> softmax_cross_entropy(const MatrixT<T>& logits, const std::vector<int>& targets) {
  const Eigen::Index n = logits.rows(), c = logits.cols();
  CrossEntropy<T> result;
  result.counted = counted_targets(targets, n, c);
  if (result.counted == 0) detail::fail(kWhere, "every target is ignored: there is no loss");

  // 1. p = softmax(logits) by row; dL/dlogits of -log p[target] is p - one_hot(target).
  result.probabilities = softmax_rows_forward(logits);
  result.d_logits = MatrixT<T>::Zero(n, c);
  const T share = T(1) / static_cast<T>(result.counted);
  T total = 0;
  for (Eigen::Index r = 0; r < n; ++r) {
    const int target = targets[static_cast<size_t>(r)];
    if (target == kIgnoredTarget) continue;
    // 2. -log p[target], from the probability itself; a probability that underflowed to 0 counts
    //    as the smallest normal number, so the loss stays finite.
    const T p = result.probabilities(r, target);
    total -= log_of(p > std::numeric_limits<T>::min() ? p : std::numeric_limits<T>::min());
    // 3. The mean over counted rows divides every row's gradient by their number.
    result.d_logits.row(r) = result.probabilities.row(r) * share;
    result.d_logits(r, target) -= share;
  }
  result.loss = total / static_cast<T>(result.counted);
  return result;
}

// logits: (n, c) -> (n, c) scale * dL/dlogits, in place
template <typename T>
T softmax_cross_entropy_in_place(MatrixT<T>& logits, const std::vector<int>& targets, T scale,
                                 int* counted, T smoothing) {
  const Eigen::Index n = logits.rows(), c = logits.cols();
  if (!(smoothing >= 0 && smoothing < 1)) {
    detail::fail(kWhere, "label smoothing must be in [0, 1)");
  }
  const bool smooth = smoothing > 0;
  const int rows = counted_targets(targets, n, c);
  *counted = rows;
  if (rows == 0) {
    logits.setZero();
    return 0;
  }
  const T share = scale / static_cast<T>(rows);
  T total = 0;
  std::vector<T> tops, sums;
  Eigen::Index r = 0;
  while (r < n) {
    if (targets[static_cast<size_t>(r)] == kIgnoredTarget) {
      logits.row(r++).setZero();
      continue;
    }
    // A run of counted rows [first, r), each checked finite (the row softmax expects no NaN),
    // and each one's target logit before it is overwritten.
    const Eigen::Index first = r;
    std::vector<T> target_logits;
    std::vector<double> row_sums;  // with smoothing: each row's sum of logits, left to right
    for (; r < n && targets[static_cast<size_t>(r)] != kIgnoredTarget; ++r) {
      if (!row_finite(logits, r)) {
        detail::fail(kWhere,
                     "row " + std::to_string(r) + " of the logits contains NaN or infinity");
      }
      target_logits.push_back(logits(r, targets[static_cast<size_t>(r)]));
      if (smooth) {
        double sum = 0;
        for (Eigen::Index v = 0; v < c; ++v) sum += static_cast<double>(logits(r, v));
        row_sums.push_back(sum);
      }
    }
    const long run = static_cast<long>(r - first);
    tops.resize(static_cast<size_t>(run));
    sums.resize(static_cast<size_t>(run));
    // 1. share * p, p = softmax by row, in place (the core's one row softmax), with each row's
    //    largest logit and its sum of e^(x_j - top).
    T* p = logits.data() + first * c;
    detail::softmax_rows_into(p, c, p, c, run, c, share, tops.data(), sums.data());
    for (long i = 0; i < run; ++i) {
      const Eigen::Index row = first + i;
      const size_t at = static_cast<size_t>(i);
      // 2. -log p[target] = log(sum_j e^(x_j - top)) - (x_target - top), with no probability
      //    that could underflow to 0.
      const T log_sum = log_of(sums[at]);
      if (!smooth) {
        total += log_sum - (target_logits[at] - tops[at]);
        // 3. dL/dlogits = (softmax - one_hot) / counted, times scale: the softmax's part is done.
        logits(row, targets[static_cast<size_t>(row)]) -= share;
        continue;
      }
      // 2'. Smoothed: mean_v(-log p_v) = log sum - (mean_v x_v - top), then the mix of the two.
      const T mean_logit = static_cast<T>(row_sums[at] / static_cast<double>(c));
      const T target_loss = log_sum - (target_logits[at] - tops[at]);
      const T uniform_loss = log_sum - (mean_logit - tops[at]);
      total += (T(1) - smoothing) * target_loss + smoothing * uniform_loss;
      // 3'. dL/dlogits = (softmax - q) / counted, times scale.
      const T spread = share * smoothing / static_cast<T>(c);
      logits.row(row).array() -= spread;
      logits(row, targets[static_cast<size_t>(row)]) -= share * (T(1) - smoothing);
    }
  }
  return total;
}

template CrossEntropy<float> softmax_cross_entropy(const MatrixT<float>&, const std::vector<int>&);
template float softmax_cross_entropy_in_place(MatrixT<float>&, const std::vector<int>&, float, int*,
                                              float);
template double softmax_cross_entropy_in_place(MatrixT<double>&, const std::vector<int>&, double,
                                               int*, double);
template CrossEntropy<double> softmax_cross_entropy(const MatrixT<double>&,
                                                    const std::vector<int>&);

}  // namespace attn

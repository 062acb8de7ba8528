// The "why scale" experiment: how the size of q . k grows with d_k, and what that does to softmax.
#pragma once

#include <cstdint>
#include <vector>

namespace attn {

struct ScalingSide {
  std::vector<float> samples;  // q . k (or q . k / sqrt(d_k)) for each sampled pair
  double mean = 0;             // measured over the samples
  double variance = 0;         // measured; about d_k unscaled, about 1 scaled
  double max_weight = 0;       // mean over trials of the largest softmax weight over `keys` keys
  double entropy = 0;          // mean softmax entropy in nats (ln(keys) is uniform, 0 one-hot)
  double gradient_norm = 0;    // mean Frobenius norm of the softmax Jacobian diag(p) - p p^T
};

struct ScalingResult {
  int d_k = 0;
  ScalingSide unscaled, scaled;
};

struct ScalingOptions {
  int d_k = 64;
  int samples = 2000;  // (q, k) pairs for the histogram and the moments
  int keys = 16;       // keys per softmax trial
  int trials = 200;    // softmax trials, each a query against `keys` keys
  std::uint64_t seed = 1;
};

// q, k unit normal of dimension d_k. Throws InvalidArgument on sizes out of range.
ScalingResult scaling_experiment(const ScalingOptions& options);

}  // namespace attn

#include "attn/scaling_experiment.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "attn/random.hpp"
#include "checks.hpp"
#include "row_softmax.hpp"

namespace attn {
namespace {

constexpr const char* kWhere = "scaling experiment";

// a: (d), b: (d) -> a . b in double precision
double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double total = 0;
  for (size_t i = 0; i < a.size(); ++i) total += a[i] * b[i];
  return total;
}

void fill_normal(Rng& rng, std::vector<double>& x) {
  for (double& value : x) value = rng.unit_normal();
}

// Sample mean and (population) variance of `side.samples`.
void measure_moments(ScalingSide& side) {
  double sum = 0;
  for (float x : side.samples) sum += x;
  side.mean = sum / side.samples.size();
  double squares = 0;
  for (float x : side.samples) squares += (x - side.mean) * (x - side.mean);
  side.variance = squares / side.samples.size();
}

// Adds to `side` the max weight, entropy and Jacobian norm of softmax(logits).
void accumulate_softmax(const std::vector<double>& logits, ScalingSide& side) {
  // The core's row softmax, in double (the standard library's exp).
  std::vector<double> p(logits.size());
  const long n = static_cast<long>(logits.size());
  if (detail::softmax_rows_into(logits.data(), n, p.data(), n, 1, n) >= 0) {
    detail::fail(kWhere, "a row of logits overflowed to infinity");
  }
  double max_weight = 0, entropy = 0, sum_p2 = 0, sum_p4 = 0, diagonal = 0;
  for (const double pj : p) {
    max_weight = pj > max_weight ? pj : max_weight;
    if (pj > 0) entropy -= pj * std::log(pj);
    sum_p2 += pj * pj;
    sum_p4 += pj * pj * pj * pj;
    diagonal += pj * pj * (1 - pj) * (1 - pj);
  }
  // J = diag(p) - p p^T: ||J||_F^2 = sum_i p_i^2 (1 - p_i)^2 + sum_{i != j} p_i^2 p_j^2.
  // The difference below is >= 0 but can round to a tiny negative number when p is one-hot.
  const double off_diagonal = std::max(0.0, sum_p2 * sum_p2 - sum_p4);
  side.max_weight += max_weight;
  side.entropy += entropy;
  side.gradient_norm += std::sqrt(diagonal + off_diagonal);
}

}  // namespace

ScalingResult scaling_experiment(const ScalingOptions& options) {
  detail::check_range(kWhere, "d_k", options.d_k, 1, 4096);
  detail::check_range(kWhere, "samples", options.samples, 2, 100000);
  detail::check_range(kWhere, "keys", options.keys, 2, 1024);
  detail::check_range(kWhere, "trials", options.trials, 1, 10000);
  const int d_k = options.d_k;
  const double scale = 1.0 / std::sqrt(static_cast<double>(d_k));
  Rng rng(options.seed);
  std::vector<double> q(d_k), k(d_k);

  // 1. The distribution of q . k for unit-normal q, k: variance d_k, and 1 after scaling.
  ScalingResult result;
  result.d_k = d_k;
  for (int s = 0; s < options.samples; ++s) {
    fill_normal(rng, q);
    fill_normal(rng, k);
    const double product = dot(q, k);
    result.unscaled.samples.push_back(static_cast<float>(product));
    result.scaled.samples.push_back(static_cast<float>(product * scale));
  }
  measure_moments(result.unscaled);
  measure_moments(result.scaled);

  // 2. What those logits do to softmax over `keys` keys: peakedness and gradient size.
  std::vector<double> unscaled(options.keys), scaled(options.keys);
  for (int t = 0; t < options.trials; ++t) {
    fill_normal(rng, q);
    for (int j = 0; j < options.keys; ++j) {
      fill_normal(rng, k);
      unscaled[j] = dot(q, k);
      scaled[j] = unscaled[j] * scale;
    }
    accumulate_softmax(unscaled, result.unscaled);
    accumulate_softmax(scaled, result.scaled);
  }
  for (ScalingSide* side : {&result.unscaled, &result.scaled}) {
    side->max_weight /= options.trials;
    side->entropy /= options.trials;
    side->gradient_norm /= options.trials;
  }
  return result;
}

}  // namespace attn

// The bottleneck experiment: store N facts, then read each one back, either from one vector of
// fixed width that holds them all or by attention over all N stored keys and values.
#pragma once

#include <cstdint>
#include <vector>

namespace attn {

struct BottleneckOptions {
  std::vector<int> counts = {1, 2, 4, 8, 16, 32, 64, 128, 256};  // N per run, increasing
  int width = 64;     // d: the width of every key, every value and the fixed vector
  int codebook = 16;  // M: each fact's value is one of M random vectors
  int trials = 4;     // fresh facts per count; the accuracy is averaged over them
  std::uint64_t seed = 1;
};

struct BottleneckResult {
  std::vector<int> counts;           // (counts) N, as asked
  std::vector<double> fixed_vector;  // (counts) share of facts read back exactly from one vector
  std::vector<double> attention;     // (counts) share of facts read back exactly by attention
};

// For each N in options.counts, `trials` times: N facts (k_j, v_j) with k_j random +-1 of width d
// and v_j one of M random codebook vectors of length sqrt(d); then each fact i is read back from
// its key, (a) from m = sum_j k_j * v_j (elementwise; m: (d)) as k_i * m, and (b) as
// softmax(k_i K^T / sqrt(d)) V (K: (N, d), V: (N, d)). A read is right when the codebook vector
// nearest it by dot product is v_i. A count's numbers depend on the seed and that count only, so
// splitting the list over several calls gives the same numbers. Throws InvalidArgument on settings
// out of range: width and codebook up to 1024, counts up to 4096 and increasing, trials up to 1000,
// and no more than a few seconds' work in all.
BottleneckResult bottleneck_experiment(const BottleneckOptions& options);

}  // namespace attn

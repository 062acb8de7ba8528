#include "attn/bottleneck.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "attn/random.hpp"
#include "checks.hpp"
#include "ordered_math.hpp"

namespace attn {
namespace {

constexpr const char* kWhere = "bottleneck experiment";
constexpr double kMaxWork = 4e9;

using Table = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Bits = Eigen::Matrix<std::uint64_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// One trial's facts: fact j is the pair (keys.row(j), codebook.row(value[j])).
struct Facts {
  Table keys;              // (n, d), entries +-1
  Bits signs;              // (n, ceil(d / 64)): bit k % 64 of word k / 64 is set where keys is -1
  Table codebook;          // (m, d), rows of length sqrt(d)
  std::vector<int> value;  // (n), indices into the codebook
};

void check_counts(const std::vector<int>& counts) {
  if (counts.empty() || counts.size() > 64) {
    detail::fail(kWhere,
                 "counts must list 1 to 64 numbers of facts, got " + std::to_string(counts.size()));
  }
  for (size_t i = 0; i < counts.size(); ++i) {
    const std::string name = "counts[" + std::to_string(i) + "]";
    detail::check_range(kWhere, name.c_str(), counts[i], 1, 4096);
    if (i > 0 && counts[i] <= counts[i - 1]) {
      detail::fail(kWhere, "counts must increase, but " + name + " = " + std::to_string(counts[i]) +
                               " follows " + std::to_string(counts[i - 1]));
    }
  }
}

// Refuses settings that would keep the caller busy for more than a few seconds.
void check_work(const BottleneckOptions& options) {
  const double d = options.width, m = options.codebook, words = (options.width + 63) / 64;
  double work = 0;  // multiply-adds, roughly
  for (const int count : options.counts) {
    const double n = count;
    work += options.trials * (n * n * words + n * m * d + m * m * d + n * m);
  }
  if (work > kMaxWork) {
    detail::fail(kWhere, "counts, width, codebook and trials together ask for about " +
                             std::to_string(static_cast<long long>(work / 1e6)) +
                             " million operations; the limit is " +
                             std::to_string(static_cast<long long>(kMaxWork / 1e6)) +
                             " million: ask for fewer or smaller runs");
  }
}

// A seed of its own for each count (count >= 1), so that the facts drawn for one count do not
// depend on which other counts are asked for.
std::uint64_t seed_for(std::uint64_t seed, int count) {
  return derive_seed(seed, static_cast<std::uint64_t>(count) - 1);
}

// Set bits in x (the classic halving sums; C++17 has no std::popcount).
int popcount(std::uint64_t x) {
  x -= (x >> 1) & 0x5555555555555555ull;
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return static_cast<int>((x * 0x0101010101010101ull) >> 56);
}

// keys i, j of width d -> k_i . k_j = d - 2 (the number of places their signs differ): a whole
// number, exact in every build, at one xor and one count per 64 entries.
int key_dot(const Facts& facts, int i, int j) {
  int differ = 0;
  for (Eigen::Index w = 0; w < facts.signs.cols(); ++w) {
    differ += popcount(facts.signs(i, w) ^ facts.signs(j, w));
  }
  return static_cast<int>(facts.keys.cols()) - 2 * differ;
}

// a: (d), b: (d) -> a . b, summed in four interleaved parts: an order fixed here, so every build
// rounds alike, and four running sums instead of one.
double dot(const double* a, const double* b, int d) {
  double part[4] = {0, 0, 0, 0};
  int i = 0;
  for (; i + 4 <= d; i += 4) {
    for (int p = 0; p < 4; ++p) part[p] += a[i + p] * b[i + p];
  }
  for (; i < d; ++i) part[0] += a[i] * b[i];
  return (part[0] + part[1]) + (part[2] + part[3]);
}

// scores: (m) -> the index of the largest (the first on a tie).
int argmax(const std::vector<double>& scores) {
  int best = 0;
  for (int c = 1; c < static_cast<int>(scores.size()); ++c) {
    if (scores[c] > scores[best]) best = c;
  }
  return best;
}

// -> n facts of width d over a codebook of m entries: keys (n, d), signs (n, ceil(d / 64)),
// codebook (m, d), value (n).
Facts draw_facts(Rng& rng, int n, int d, int m) {
  Facts facts;
  // 1. The codebook: unit-normal directions stretched to length sqrt(d), the length of a +-1
  //    vector, so that no entry outscores a value by being long: v . v = d > v . c for c != v.
  facts.codebook.resize(m, d);
  for (int c = 0; c < m; ++c) {
    double squares = 0;
    for (int k = 0; k < d; ++k) {
      const double x = rng.unit_normal();
      facts.codebook(c, k) = x;
      squares += x * x;
    }
    const double stretch = std::sqrt(d / squares);
    for (int k = 0; k < d; ++k) facts.codebook(c, k) *= stretch;
  }
  // 2. The keys: random signs, 32 from each draw, so k * k = 1 elementwise and k . k = d.
  facts.keys.resize(n, d);
  facts.signs = Bits::Zero(n, (d + 63) / 64);
  for (int j = 0; j < n; ++j) {
    std::uint32_t draw = 0;
    for (int k = 0; k < d; ++k) {
      if (k % 32 == 0) draw = rng.next_u32();
      const bool negative = ((draw >> (k % 32)) & 1u) != 0;
      facts.keys(j, k) = negative ? -1.0 : 1.0;
      if (negative) facts.signs(j, k / 64) |= std::uint64_t{1} << (k % 64);
    }
  }
  // 3. The values: codebook entries drawn uniformly, repeats allowed.
  facts.value.resize(n);
  for (int j = 0; j < n; ++j) facts.value[j] = static_cast<int>(rng.uniform() * m);
  return facts;
}

// (a) keys (n, d), values (n, d) -> memory = sum_j k_j * v_j (d); fact i is read as k_i * memory
// (d), which is v_i plus the other n - 1 values scrambled by k_i * k_j, and answered by the
// codebook entry c with the largest c . read. Returns how many answers are right.
int fixed_vector_hits(const Facts& facts) {
  const int n = static_cast<int>(facts.keys.rows()), d = static_cast<int>(facts.keys.cols());
  const int m = static_cast<int>(facts.codebook.rows());
  std::vector<double> memory(d, 0.0), read(d), scores(m);
  for (int j = 0; j < n; ++j) {
    const double* v = facts.codebook.row(facts.value[j]).data();
    for (int k = 0; k < d; ++k) memory[k] += facts.keys(j, k) * v[k];
  }
  int hits = 0;
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < d; ++k) read[k] = facts.keys(i, k) * memory[k];
    for (int c = 0; c < m; ++c) scores[c] = dot(facts.codebook.row(c).data(), read.data(), d);
    hits += argmax(scores) == facts.value[i];
  }
  return hits;
}

// (b) query k_i (d) against keys K (n, d): weights w = softmax(k_i K^T / sqrt(d)) (n), output
// o = sum_j w_j v_j (d), answered by the codebook entry c with the largest c . o. Every value is a
// codebook entry, so o = sum_e a_e c_e with a_e the total weight on entry e, and
// c . o = sum_e a_e (c_e . c): the same answer from the codebook's (m, m) dot products, at m * m
// operations per read instead of 2 m d. Returns how many answers are right.
int attention_hits(const Facts& facts) {
  const int n = static_cast<int>(facts.keys.rows()), d = static_cast<int>(facts.keys.cols());
  const int m = static_cast<int>(facts.codebook.rows());
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  // 1. Scores are whole numbers from -d to d, so every exponent is one of 2d + 1: computed once;
  //    and the codebook's dot products c_e . c: (m, m).
  std::vector<double> exp_below(2 * d + 1);
  for (int gap = 0; gap <= 2 * d; ++gap) exp_below[gap] = detail::portable_exp(-gap * scale);
  Table gram(m, m);
  for (int e = 0; e < m; ++e) {
    for (int c = 0; c < m; ++c) {
      gram(e, c) = dot(facts.codebook.row(e).data(), facts.codebook.row(c).data(), d);
    }
  }
  std::vector<int> scores(n);
  std::vector<double> weights(n), per_entry(m), answers(m);
  int hits = 0;
  for (int i = 0; i < n; ++i) {
    // 2. Scores k_i . k_j; the largest is k_i . k_i = d.
    for (int j = 0; j < n; ++j) scores[j] = key_dot(facts, i, j);
    const int top = *std::max_element(scores.begin(), scores.end());
    // 3. Softmax of the scaled scores, shifted by the largest so that no exponent overflows; a
    //    score s sits top - s below the largest, a whole number from 0 to 2d.
    double total = 0;
    for (int j = 0; j < n; ++j) total += (weights[j] = exp_below[top - scores[j]]);
    // 4. The weights gathered by codebook entry, then c . o for every entry c.
    std::fill(per_entry.begin(), per_entry.end(), 0.0);
    for (int j = 0; j < n; ++j) per_entry[facts.value[j]] += weights[j] / total;
    std::fill(answers.begin(), answers.end(), 0.0);
    for (int e = 0; e < m; ++e) {
      if (per_entry[e] == 0.0) continue;
      for (int c = 0; c < m; ++c) answers[c] += per_entry[e] * gram(e, c);
    }
    hits += argmax(answers) == facts.value[i];
  }
  return hits;
}

}  // namespace

BottleneckResult bottleneck_experiment(const BottleneckOptions& options) {
  check_counts(options.counts);
  detail::check_range(kWhere, "width", options.width, 1, 1024);
  detail::check_range(kWhere, "codebook", options.codebook, 2, 1024);
  detail::check_range(kWhere, "trials", options.trials, 1, 1000);
  check_work(options);

  BottleneckResult result;
  result.counts = options.counts;
  for (const int n : options.counts) {
    Rng rng(seed_for(options.seed, n));
    long long fixed = 0, attended = 0;
    for (int t = 0; t < options.trials; ++t) {
      const Facts facts = draw_facts(rng, n, options.width, options.codebook);
      fixed += fixed_vector_hits(facts);
      attended += attention_hits(facts);
    }
    const double reads = static_cast<double>(n) * options.trials;
    result.fixed_vector.push_back(fixed / reads);
    result.attention.push_back(attended / reads);
  }
  return result;
}

}  // namespace attn

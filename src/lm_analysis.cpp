#include "attn/lm_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "checks.hpp"
#include "row_softmax.hpp"

namespace attn {

namespace {

constexpr const char* kWhere = "language model analysis";

void require_square(const MatrixT<float>& w) {
  if (w.rows() < 1 || w.rows() != w.cols()) {
    detail::fail(kWhere, "attention weights are " + shape_of(w.rows(), w.cols()) +
                             "; they must be (n, n) with n >= 1");
  }
}

}  // namespace

PatternScores pattern_scores(const std::vector<MatrixT<float>>& weights) {
  double previous = 0, first = 0, self = 0;
  long rows_1 = 0, rows_2 = 0;
  for (const MatrixT<float>& w : weights) {
    require_square(w);
    for (Eigen::Index i = 1; i < w.rows(); ++i) {
      previous += w(i, i - 1);
      self += w(i, i);
      ++rows_1;
      if (i >= 2) {
        first += w(i, 0);
        ++rows_2;
      }
    }
  }
  if (rows_2 == 0) detail::fail(kWhere, "pattern scores need a sequence of at least 3 tokens");
  return {previous / static_cast<double>(rows_1), first / static_cast<double>(rows_2),
          self / static_cast<double>(rows_1)};
}

double induction_score(const std::vector<MatrixT<float>>& weights, int copy_length) {
  if (copy_length < 2) detail::fail(kWhere, "the copy length must be >= 2");
  if (weights.empty()) detail::fail(kWhere, "the induction score needs at least one sequence");
  const Eigen::Index n = 2 * static_cast<Eigen::Index>(copy_length);
  double sum = 0;
  for (const MatrixT<float>& w : weights) {
    if (w.rows() != n || w.cols() != n) {
      detail::fail(kWhere, "induction weights are " + shape_of(w.rows(), w.cols()) +
                               " but a copy length of " + std::to_string(copy_length) +
                               " makes them " + shape_of(n, n));
    }
    for (Eigen::Index k = 0; k < copy_length; ++k) sum += w(copy_length + k, k + 1);
  }
  return sum / static_cast<double>(weights.size() * static_cast<size_t>(copy_length));
}

std::vector<int> repeated_random_sequence(Rng& rng, int copy_length, int low, int high) {
  if (copy_length < 1 || high - low < copy_length) {
    detail::fail(kWhere, "cannot draw " + std::to_string(copy_length) + " distinct ids from [" +
                             std::to_string(low) + ", " + std::to_string(high) + ")");
  }
  std::vector<int> ids;
  while (static_cast<int>(ids.size()) < copy_length) {
    const int id = low + static_cast<int>(rng.next_u32() % static_cast<std::uint32_t>(high - low));
    bool seen = false;
    for (int other : ids) seen = seen || other == id;
    if (!seen) ids.push_back(id);
  }
  std::vector<int> out = ids;
  out.insert(out.end(), ids.begin(), ids.end());
  return out;
}

std::string head_kind(const PatternScores& p, double induction) {
  if (induction >= kInductionThreshold) return "induction";
  if (p.previous_token >= kPatternThreshold) return "previous-token";
  if (p.first_token >= kPatternThreshold) return "first-token";
  if (p.self >= kPatternThreshold) return "self";
  return "mixed";
}

std::vector<HeadScores> measure_heads(const LanguageModel<float>& model,
                                      const std::vector<std::vector<int>>& text,
                                      const std::vector<std::vector<int>>& repeated,
                                      int copy_length) {
  const LanguageModelConfig& c = model.config();
  const auto weights_of = [&](const std::vector<std::vector<int>>& sequences) {
    // [layer][head][sequence] -> (n, n)
    std::vector<std::vector<std::vector<MatrixT<float>>>> out(
        static_cast<size_t>(c.layers),
        std::vector<std::vector<MatrixT<float>>>(static_cast<size_t>(c.heads)));
    for (const std::vector<int>& s : sequences) {
      const LanguageModelPass<float> pass = model.forward(s, LogitRows::last_position);
      for (int l = 0; l < c.layers; ++l) {
        for (int h = 0; h < c.heads; ++h) {
          out[static_cast<size_t>(l)][static_cast<size_t>(h)].push_back(
              pass.attention_weights(l, h));
        }
      }
    }
    return out;
  };
  const auto on_text = weights_of(text);
  const auto on_repeated = weights_of(repeated);
  std::vector<HeadScores> scores;
  for (int l = 0; l < c.layers; ++l) {
    for (int h = 0; h < c.heads; ++h) {
      HeadScores s;
      s.layer = l;
      s.head = h;
      s.pattern = pattern_scores(on_text[static_cast<size_t>(l)][static_cast<size_t>(h)]);
      s.induction =
          induction_score(on_repeated[static_cast<size_t>(l)][static_cast<size_t>(h)], copy_length);
      s.kind = head_kind(s.pattern, s.induction);
      scores.push_back(s);
    }
  }
  return scores;
}

Perplexity held_out_perplexity(const LanguageModel<float>& model,
                               const std::vector<std::vector<int>>& samples, int batch) {
  if (batch < 1) detail::fail(kWhere, "the batch must be >= 1");
  const int context = model.config().context;
  std::vector<std::vector<int>> inputs, targets;
  Perplexity result;
  double total = 0;
  const auto flush = [&] {
    if (inputs.empty()) return;
    long counted = 0;
    for (const auto& t : targets) counted += static_cast<long>(t.size());
    total += static_cast<double>(model.loss(inputs, targets)) * static_cast<double>(counted);
    result.tokens += counted;
    inputs.clear();
    targets.clear();
  };
  for (const std::vector<int>& sample : samples) {
    const size_t m = sample.size();
    for (size_t start = 0; start + 1 < m; start += static_cast<size_t>(context)) {
      const size_t end =
          std::min(m - 1, start + static_cast<size_t>(context));  // inputs [start, end)
      inputs.emplace_back(sample.begin() + static_cast<long>(start),
                          sample.begin() + static_cast<long>(end));
      targets.emplace_back(sample.begin() + static_cast<long>(start) + 1,
                           sample.begin() + static_cast<long>(end) + 1);
      ++result.windows;
      if (static_cast<int>(inputs.size()) == batch) flush();
    }
  }
  flush();
  if (result.tokens == 0) detail::fail(kWhere, "no sample has two tokens to predict from");
  result.mean_nll = total / static_cast<double>(result.tokens);
  result.perplexity = std::exp(result.mean_nll);
  return result;
}

std::vector<NextWord> top_next_words(const MatrixT<float>& logits, int row, int k) {
  if (row < 0 || row >= logits.rows()) {
    detail::fail("top next words", "row " + std::to_string(row) + " is not one of the " +
                                       std::to_string(logits.rows()) + " rows");
  }
  if (k < 1) detail::fail("top next words", "k must be >= 1, got " + std::to_string(k));
  const int vocab = static_cast<int>(logits.cols());
  k = std::min(k, vocab);
  // p = softmax(z), the core's one row softmax (row_softmax.hpp).
  const float* z = logits.data() + static_cast<long>(row) * vocab;
  std::vector<float> p(static_cast<std::size_t>(vocab));
  if (detail::softmax_rows_into(z, vocab, p.data(), vocab, 1, vocab) >= 0) {
    detail::fail("top next words", "row " + std::to_string(row) +
                                       " of the logits has no finite entry to put weight on");
  }
  std::vector<int> ids(static_cast<std::size_t>(vocab));
  for (int j = 0; j < vocab; ++j) ids[static_cast<std::size_t>(j)] = j;
  const auto higher = [&](int a, int b) {
    return logits(row, a) > logits(row, b) || (logits(row, a) == logits(row, b) && a < b);
  };
  std::partial_sort(ids.begin(), ids.begin() + k, ids.end(), higher);
  std::vector<NextWord> top;
  top.reserve(static_cast<std::size_t>(k));
  for (int i = 0; i < k; ++i) {
    const int id = ids[static_cast<std::size_t>(i)];
    top.push_back({id, static_cast<double>(p[static_cast<std::size_t>(id)])});
  }
  return top;
}

}  // namespace attn

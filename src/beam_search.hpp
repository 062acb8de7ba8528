// The search both translation models write with (Translator::translate,
// TransformerTranslator::translate): greedy decoding for a beam of 1, a beam search otherwise, as
// translator.hpp describes it. The model is a function that runs one decoder step over the live
// hypotheses and returns their logits; the search decides which continue. Private to src/.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "attn/matrix.hpp"
#include "attn/random.hpp"
#include "attn/translator.hpp"
#include "ordered_math.hpp"
#include "simd.hpp"

namespace attn::detail {

// l: (V) a row of logits -> best: the `count` likeliest ids the model may write (kTargetEnd ..
// V - 1) by logit, largest first, of equal logits the first id first. count = 1 is greedy
// decoding's choice.
template <typename T>
void likeliest(const T* l, int words, int count, std::vector<int>& best) {
  best.clear();
  for (int v = kTargetEnd; v < words; ++v) {
    if (static_cast<int>(best.size()) == count) {
      if (!(l[v] > l[best.back()])) continue;
      best.pop_back();
    }
    auto at = best.end();
    while (at != best.begin() && l[v] > l[*(at - 1)]) --at;
    best.insert(at, v);
  }
}

// l: (V) a row of logits, top its largest that the model may write -> the sum of e^(l_v - top)
// over the ids it may write (kTargetEnd .. V - 1), the softmax's denominator. For float logits
// each term is the float portable exp (simd::portable_exp, four ids at a time, with the same bits
// as detail::portable_exp one id at a time), for double the double one. The terms go into four
// running sums in double, id v into sum (v - kTargetEnd) mod 4, added pairwise at the end: a fixed
// order, so every build gets the same bits, and four chains of additions for the processor to
// overlap. The search calls it for every live hypothesis at every step, over the whole German
// vocabulary, which is why the float terms are taken four at a time.
template <typename T>
double sum_of_exp_below(const T* l, int words, T top) {
  double sums[4] = {0, 0, 0, 0};
  int v = kTargetEnd;
  if constexpr (std::is_same_v<T, float>) {
    const simd::f32x4 shift = simd::splat(top);
    for (; v + 4 <= words; v += 4) {
      const simd::f32x4 e = simd::portable_exp(simd::load(l + v) - shift);
      for (int lane = 0; lane < 4; ++lane) sums[lane] += static_cast<double>(e[lane]);
    }
  }
  for (; v < words; ++v) {
    sums[(v - kTargetEnd) % 4] += static_cast<double>(portable_exp(l[v] - top));
  }
  return (sums[0] + sums[1]) + (sums[2] + sums[3]);
}

// The hypothesis a search chose.
struct BeamResult {
  std::vector<int> words;                    // (L) German ids, without </s>
  std::vector<int> rows;                     // (L + 1) its row in each step's logits
  std::vector<double> step_log_probability;  // (L + 1) each id's and </s>'s
  double log_probability = 0;                // their total
};

// step(t, rows, ids) runs decoder step t (t = 0 .. max_words) for the live hypotheses and returns
// their logits, (live, words): at t = 0 one hypothesis reading <s> (rows and ids empty); after
// it, hypothesis i continues row rows[i] of step t - 1 with id ids[i]. The search (translator.hpp,
// Translator::translate) keeps the beam - F best offers by total log-probability, F the finished
// ones, and returns the finished hypothesis of the highest log p / lp(L). Every log-probability
// is a softmax over the ids the model may write (all but padding and <s>), with the portable exp
// and log, so every build ranks alike. Expects 0 <= max_words < kMaxTranslationLength and
// 1 <= beam <= kMaxBeam (the callers check them).
template <typename T, typename Step>
BeamResult beam_search(int max_words, int beam, int words, Step&& step) {
  std::vector<double> log_p{0.0};
  // Per step t >= 1: the row at step t - 1 each live row continues, the id it wrote there and that
  // id's log-probability; enough to write out any hypothesis at the end.
  std::vector<std::vector<int>> parents(1), written(1);
  std::vector<std::vector<double>> written_log_p(1);
  struct Candidate {
    double log_probability, step_log_probability;
    int id, row;
  };
  struct Finished {
    int step, row;  // it wrote </s> from row `row` of step `step`, after `step` words
    double log_probability, step_log_probability;
  };
  std::vector<Finished> finished;
  std::vector<Candidate> candidates;
  std::vector<int> best, rows, ids;
  for (int t = 0; t <= max_words; ++t) {
    const MatrixT<T> logits = step(t, rows, ids);
    const Eigen::Index live = logits.rows();

    // 1. What each row offers: its `offered` likeliest ids (never padding or <s>), each with the
    // row's total after it. After max_words words a step can only end the sentence. top is the
    // largest logit the row may write either way; log p(v) = logit - log sum exp(logits), over
    // every id the model can write.
    const int slots = beam - static_cast<int>(finished.size());
    const int offered = t == max_words ? 1 : std::min(slots, words - kTargetEnd);
    candidates.clear();
    for (Eigen::Index i = 0; i < live; ++i) {
      const T* l = logits.row(i).data();
      likeliest(l, words, offered, best);
      const T top = l[best[0]];
      const double log_total = portable_log(sum_of_exp_below(l, words, top));
      if (t == max_words) best.assign(1, kTargetEnd);
      for (const int v : best) {
        const double own = static_cast<double>(l[v] - top) - log_total;
        candidates.push_back({log_p[static_cast<size_t>(i)] + own, own, v, static_cast<int>(i)});
      }
    }

    // 2. The `slots` best candidates by total (of equal ones the lower id, then the earlier row; a
    // NaN total ranks last) go on: one that writes </s> is finished, the others are the next
    // step's rows, best first. With beam 1 that is the one word greedy decoding writes.
    const auto rank = [](double x) {
      return std::isnan(x) ? -std::numeric_limits<double>::infinity() : x;
    };
    const auto before = [&](const Candidate& a, const Candidate& b) {
      const double x = rank(a.log_probability), y = rank(b.log_probability);
      if (x != y) return x > y;
      return a.id != b.id ? a.id < b.id : a.row < b.row;
    };
    const auto kept = std::min(candidates.size(), static_cast<size_t>(slots));
    std::partial_sort(candidates.begin(), candidates.begin() + static_cast<long>(kept),
                      candidates.end(), before);
    rows.clear();
    ids.clear();
    log_p.clear();
    std::vector<double> own;
    for (size_t c = 0; c < kept; ++c) {
      const Candidate& next = candidates[c];
      if (next.id == kTargetEnd) {
        finished.push_back({t, next.row, next.log_probability, next.step_log_probability});
        continue;
      }
      rows.push_back(next.row);
      ids.push_back(next.id);
      log_p.push_back(next.log_probability);
      own.push_back(next.step_log_probability);
    }
    if (rows.empty()) break;  // every hypothesis has finished
    parents.push_back(rows);
    written.push_back(ids);
    written_log_p.push_back(std::move(own));
  }

  // 3. Of the finished hypotheses, the highest log p / lp(L), the first of equal ones; then its
  // words and its rows of every step, followed back from its last step.
  size_t chosen = 0;
  double chosen_score = 0;
  for (size_t f = 0; f < finished.size(); ++f) {
    const double score =
        finished[f].log_probability / translation_length_penalty(finished[f].step + 1);
    if (f == 0 || score > chosen_score) {
      chosen = f;
      chosen_score = score;
    }
  }
  const Finished& last = finished[chosen];
  BeamResult out;
  out.words.resize(static_cast<size_t>(last.step));
  out.rows.resize(static_cast<size_t>(last.step) + 1);
  out.step_log_probability.resize(static_cast<size_t>(last.step) + 1);
  out.step_log_probability.back() = last.step_log_probability;
  for (int t = last.step, row = last.row; t >= 0; --t) {
    out.rows[static_cast<size_t>(t)] = row;
    if (t == 0) break;
    out.words[static_cast<size_t>(t - 1)] = written[static_cast<size_t>(t)][row];
    out.step_log_probability[static_cast<size_t>(t - 1)] =
        written_log_p[static_cast<size_t>(t)][row];
    row = parents[static_cast<size_t>(t)][row];
  }
  out.log_probability = last.log_probability;
  return out;
}

}  // namespace attn::detail

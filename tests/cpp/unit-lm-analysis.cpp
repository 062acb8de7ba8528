#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <set>
#include <vector>

#include "attn/language_model.hpp"
#include "attn/lm_analysis.hpp"
#include "helpers.hpp"

namespace {

using Mat = attn::MatrixT<float>;

// (n, n) causal weights: row i has weight 1 on column column_of(i).
template <typename F>
Mat one_hot_rows(int n, F column_of) {
  Mat w = Mat::Zero(n, n);
  for (int i = 0; i < n; ++i) w(i, column_of(i)) = 1.0f;
  return w;
}

Mat uniform_causal(int n) {
  Mat w = Mat::Zero(n, n);
  for (int i = 0; i < n; ++i) w.row(i).head(i + 1).setConstant(1.0f / static_cast<float>(i + 1));
  return w;
}

attn::LanguageModel<float> tiny_model() {
  // vocab, d_embed, d_model, layers, heads, d_mlp, context, seed, position_scale
  const attn::LanguageModelConfig c{11, 4, 6, 2, 3, 12, 5, 8, 0.2f};
  attn::LanguageModel<float> model(c, test::random(11, 4, 9));
  std::uint64_t s = 300;
  for (attn::Parameter<float>* p : model.parameters()) {
    p->value +=
        test::random(static_cast<int>(p->value.rows()), static_cast<int>(p->value.cols()), s++) *
        0.5f;
  }
  return model;
}

}  // namespace

TEST_CASE("lm analysis: pattern scores of hand-made heads", "[lm-analysis]") {
  const Mat previous = one_hot_rows(5, [](int i) { return i == 0 ? 0 : i - 1; });
  const Mat first = one_hot_rows(5, [](int) { return 0; });
  const Mat self = one_hot_rows(4, [](int i) { return i; });
  attn::PatternScores p = attn::pattern_scores({previous});
  CHECK(p.previous_token == 1.0);
  CHECK(p.first_token == 0.0);  // rows 2..4 put nothing on column 0
  CHECK(p.self == 0.0);
  p = attn::pattern_scores({first});
  CHECK(p.first_token == 1.0);
  CHECK(p.previous_token == Approx(0.25));  // only row 1's previous token is the first
  CHECK(p.self == 0.0);
  p = attn::pattern_scores({self});
  CHECK(p.self == 1.0);
  CHECK(p.previous_token == 0.0);

  // Pooled over rows of two sequences, not averaged per sequence: uniform (n = 4) has rows 1..3
  // with 1/2, 1/3, 1/4 on the previous token; `previous` (n = 5) four rows of 1.
  p = attn::pattern_scores({uniform_causal(4), previous});
  CHECK(p.previous_token == Approx((0.5 + 1.0 / 3 + 0.25 + 4) / 7));
  CHECK(p.first_token == Approx((1.0 / 3 + 0.25 + 0) / 5));
  CHECK(p.self == Approx((0.5 + 1.0 / 3 + 0.25) / 7));

  CHECK_THROWS_AS(attn::pattern_scores({Mat::Zero(3, 4)}), attn::InvalidArgument);
  CHECK_THROWS_AS(attn::pattern_scores({uniform_causal(2)}), attn::InvalidArgument);
}

TEST_CASE("lm analysis: the induction score is the weight on the token after the first copy",
          "[lm-analysis]") {
  const int L = 4;
  // Rows of the second copy, L + k, on column k + 1; the first copy anywhere (here on itself).
  const Mat induction = one_hot_rows(2 * L, [&](int i) { return i < L ? i : i - L + 1; });
  const Mat previous = one_hot_rows(2 * L, [](int i) { return i == 0 ? 0 : i - 1; });
  CHECK(attn::induction_score({induction}, L) == 1.0);
  CHECK(attn::induction_score({previous}, L) == 0.0);
  CHECK(attn::induction_score({induction, previous}, L) == 0.5);
  const Mat half = 0.5f * induction + 0.5f * previous;
  CHECK(attn::induction_score({half}, L) == Approx(0.5));
  // The uniform head: row L + k spreads 1 / (L + k + 1) over its columns.
  double expected = 0;
  for (int k = 0; k < L; ++k) expected += 1.0 / (L + k + 1) / L;
  CHECK(attn::induction_score({uniform_causal(2 * L)}, L) == Approx(expected));
  CHECK_THROWS_AS(attn::induction_score({induction}, L + 1), attn::InvalidArgument);
  CHECK_THROWS_AS(attn::induction_score({}, L), attn::InvalidArgument);
}

TEST_CASE("lm analysis: a head is named from its scores at the documented thresholds",
          "[lm-analysis]") {
  CHECK(attn::head_kind({0.9, 0.0, 0.0}, 0.4) == "induction");
  CHECK(attn::head_kind({0.9, 0.0, 0.0}, 0.39) == "previous-token");
  CHECK(attn::head_kind({0.5, 0.6, 0.0}, 0.0) == "previous-token");
  CHECK(attn::head_kind({0.49, 0.5, 0.0}, 0.0) == "first-token");
  CHECK(attn::head_kind({0.2, 0.2, 0.5}, 0.0) == "self");
  CHECK(attn::head_kind({0.49, 0.49, 0.49}, 0.39) == "mixed");
}

TEST_CASE("lm analysis: repeated random sequences", "[lm-analysis]") {
  attn::Rng rng(5), again(5);
  const std::vector<int> s = attn::repeated_random_sequence(rng, 6, 10, 20);
  REQUIRE(s.size() == 12);
  CHECK(std::vector<int>(s.begin(), s.begin() + 6) == std::vector<int>(s.begin() + 6, s.end()));
  CHECK(std::set<int>(s.begin(), s.end()).size() == 6);
  for (int id : s) CHECK((id >= 10 && id < 20));
  CHECK(attn::repeated_random_sequence(again, 6, 10, 20) == s);
  CHECK(attn::repeated_random_sequence(rng, 6, 10, 20) != s);
  CHECK_THROWS_AS(attn::repeated_random_sequence(rng, 11, 10, 20), attn::InvalidArgument);
}

TEST_CASE("lm analysis: measure_heads scores every head on the model's own weights",
          "[lm-analysis]") {
  const attn::LanguageModel<float> model = tiny_model();
  const std::vector<std::vector<int>> text{{1, 2, 3, 4, 5}, {6, 7, 8}};
  attn::Rng rng(3);
  const std::vector<std::vector<int>> repeated{attn::repeated_random_sequence(rng, 2, 0, 11),
                                               attn::repeated_random_sequence(rng, 2, 0, 11)};
  const std::vector<attn::HeadScores> heads = attn::measure_heads(model, text, repeated, 2);
  REQUIRE(heads.size() == 6);
  for (const attn::HeadScores& h : heads) {
    std::vector<Mat> on_text, on_repeated;
    for (const auto& s : text)
      on_text.push_back(model.forward(s).attention_weights(h.layer, h.head));
    for (const auto& s : repeated) {
      on_repeated.push_back(model.forward(s).attention_weights(h.layer, h.head));
    }
    const attn::PatternScores p = attn::pattern_scores(on_text);
    CHECK(h.pattern.previous_token == Approx(p.previous_token));
    CHECK(h.pattern.first_token == Approx(p.first_token));
    CHECK(h.pattern.self == Approx(p.self));
    CHECK(h.induction == Approx(attn::induction_score(on_repeated, 2)));
    CHECK(h.kind == attn::head_kind(h.pattern, h.induction));
  }
  CHECK(heads[4].layer == 1);
  CHECK(heads[4].head == 1);
}

TEST_CASE("lm analysis: held-out perplexity predicts every token but a sample's first once",
          "[lm-analysis]") {
  const attn::LanguageModel<float> model = tiny_model();
  const std::vector<std::vector<int>> samples{
      {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 1}, {3}, {4, 9, 2}, {5, 5, 5, 5, 5, 5}};
  // Independently: token j of a sample is predicted from the tokens of its window before it,
  // the window starting at the multiple of the context (5) below j.
  double nll = 0;
  long tokens = 0;
  for (const auto& s : samples) {
    for (size_t j = 1; j < s.size(); ++j) {
      const size_t start = (j - 1) / 5 * 5;
      const std::vector<int> prefix(s.begin() + static_cast<long>(start),
                                    s.begin() + static_cast<long>(j));
      const Mat logits = model.forward(prefix, attn::LogitRows::last_position).logits;
      const double m = logits.maxCoeff();
      const double log_sum = m + std::log((logits.array() - static_cast<float>(m)).exp().sum());
      nll += log_sum - logits(0, s[j]);
      ++tokens;
    }
  }
  for (int batch : {1, 2, 32}) {
    const attn::Perplexity p = attn::held_out_perplexity(model, samples, batch);
    CHECK(p.tokens == tokens);
    CHECK(p.tokens == 11 + 0 + 2 + 5);
    CHECK(p.windows == 3 + 0 + 1 + 1);
    CHECK(p.mean_nll == Approx(nll / static_cast<double>(tokens)).epsilon(1e-5));
    CHECK(p.perplexity == Approx(std::exp(p.mean_nll)));
  }
  CHECK_THROWS_AS(attn::held_out_perplexity(model, {{3}}), attn::InvalidArgument);
}

TEST_CASE("lm analysis: the top next words are the most probable under softmax, in order",
          "[lm-analysis]") {
  Mat logits(2, 5);
  logits << 0, 0, 0, 0, 0,  //
      1.0f, 3.0f, -2.0f, 3.0f, 0.5f;
  const std::vector<attn::NextWord> top = attn::top_next_words(logits, 1, 3);
  REQUIRE(top.size() == 3);
  CHECK(top[0].id == 1);  // a tie with id 3: the smaller id first
  CHECK(top[1].id == 3);
  CHECK(top[2].id == 0);
  double sum = 0;
  for (int j = 0; j < 5; ++j) sum += std::exp(static_cast<double>(logits(1, j)));
  CHECK(top[0].probability == Approx(std::exp(3.0) / sum).epsilon(1e-6));
  CHECK(top[2].probability == Approx(std::exp(1.0) / sum).epsilon(1e-6));
  // k is clamped to the vocabulary; every probability of a row sums to 1
  const std::vector<attn::NextWord> all = attn::top_next_words(logits, 0, 50);
  REQUIRE(all.size() == 5);
  double total = 0;
  for (const attn::NextWord& w : all) total += w.probability;
  CHECK(total == Approx(1.0).epsilon(1e-6));
  CHECK_THROWS_WITH(attn::top_next_words(logits, 2, 1), Catch::Matchers::Contains("row 2"));
  CHECK_THROWS_WITH(attn::top_next_words(logits, 0, 0), Catch::Matchers::Contains("k must be"));
  logits.row(0).setConstant(-std::numeric_limits<float>::infinity());
  CHECK_THROWS_WITH(attn::top_next_words(logits, 0, 1), Catch::Matchers::Contains("no finite"));
}

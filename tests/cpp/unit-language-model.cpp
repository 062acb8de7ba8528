#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "attn/language_model.hpp"
#include "attn/loss.hpp"
#include "gradient_check.hpp"

using test::MatD;

namespace {

constexpr int kIgnored = attn::kIgnoredTarget;

// A tiny model with the real model's shape of parts: 9 words of width 5, d_model 8, 2 blocks of
// 2 heads, MLP width 16, context 6.
attn::LanguageModelConfig tiny_config() {
  // vocab, d_embed, d_model, layers, heads, d_mlp, context, seed, position_scale
  return {9, 5, 8, 2, 2, 16, 6, 7, 0.2f};
}

template <typename T>
attn::LanguageModel<T> tiny_model() {
  const attn::LanguageModelConfig c = tiny_config();
  return attn::LanguageModel<T>(c, attn::unit_normal(c.vocab, c.d_embed, 70).cast<T>());
}

// Three sequences of different lengths (the last at the full context), with ignored targets.
const std::vector<std::vector<int>> kInputs = {{1, 4, 2, 8}, {3, 3, 0, 5, 7, 6}, {2, 5}};
const std::vector<std::vector<int>> kTargets = {
    {4, 2, 8, kIgnored}, {3, 0, 5, 7, 6, 1}, {kIgnored, kIgnored}};

}  // namespace

TEST_CASE(
    "language model: the batch loss's gradient w.r.t. every parameter matches central "
    "differences",
    "[language-model]") {
  auto model = tiny_model<double>();
  // Move every parameter off its initial value (biases 0, gains 1) into general position.
  std::uint64_t seed = 100;
  for (attn::Parameter<double>* p : model.parameters()) {
    p->value += test::random_d(static_cast<int>(p->value.rows()), static_cast<int>(p->value.cols()),
                               seed++) *
                0.2;
  }
  model.zero_grad();
  const double loss = model.loss_and_backward(kInputs, kTargets);
  CHECK(loss == Approx(model.loss(kInputs, kTargets)).epsilon(1e-14));
  const auto params = model.parameters();
  REQUIRE(params.size() == 3 + 2 * 16 + 4);
  test::check_parameter_gradients(params, [&] { return model.loss(kInputs, kTargets); });
}

TEST_CASE(
    "language model: no gradient reaches the rows of P past the sequence, nor a last position "
    "whose target is ignored",
    "[language-model]") {
  auto model = tiny_model<double>();
  const std::vector<std::vector<int>> inputs = {{1, 2, 3}};
  model.loss_and_backward(inputs, {{2, 3, kIgnored}});
  const auto params = model.parameters();
  const attn::Parameter<double>& p = *params[2];
  REQUIRE(p.name == "P");
  CHECK(p.grad.topRows(2).norm() > 0);
  // Position 2's target is ignored, and nothing later reads position 2: no gradient reaches it.
  CHECK(p.grad.bottomRows(4).isZero(0));
}

TEST_CASE("language model: the batch loss is the mean over counted targets of every sequence",
          "[language-model]") {
  auto model = tiny_model<double>();
  double total = 0;
  int counted = 0;
  for (size_t s = 0; s < kInputs.size(); ++s) {
    const MatD logits = model.forward(kInputs[s]).logits;
    for (size_t i = 0; i < kTargets[s].size(); ++i) {
      const int t = kTargets[s][i];
      if (t == kIgnored) continue;
      const auto row = logits.row(static_cast<Eigen::Index>(i));
      total += std::log(row.array().exp().sum()) - row(t);
      ++counted;
    }
  }
  REQUIRE(counted == 9);
  CHECK(model.loss(kInputs, kTargets) == Approx(total / counted).epsilon(1e-12));
}

TEST_CASE("language model: position i's logits do not change when tokens after i change",
          "[language-model]") {
  const auto model = tiny_model<float>();
  const std::vector<int> tokens = {1, 4, 2, 8, 0, 3};
  const auto before = model.forward(tokens);
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    std::vector<int> changed = tokens;
    for (size_t j = i + 1; j < tokens.size(); ++j)
      changed[j] = (changed[j] + 1 + static_cast<int>(j)) % 9;
    const auto after = model.forward(changed);
    INFO("tokens changed after position " << i);
    const auto rows = static_cast<Eigen::Index>(i + 1);
    CHECK(after.logits.topRows(rows) == before.logits.topRows(rows));  // bit for bit
    CHECK((after.logits.row(rows) - before.logits.row(rows)).norm() > 1e-4f);
    for (int l = 0; l < 2; ++l) {
      for (int h = 0; h < 2; ++h) {
        CHECK(after.attention_weights(l, h).topRows(rows) ==
              before.attention_weights(l, h).topRows(rows));
      }
    }
  }
}

TEST_CASE("language model: the forward pass returns every layer's and head's causal weights",
          "[language-model]") {
  const auto model = tiny_model<double>();
  const auto pass = model.forward({1, 2, 3, 4});
  REQUIRE(pass.logits.rows() == 4);
  REQUIRE(pass.logits.cols() == 9);
  REQUIRE(pass.blocks.size() == 2);
  for (int l = 0; l < 2; ++l) {
    for (int h = 0; h < 2; ++h) {
      const MatD& a = pass.attention_weights(l, h);
      REQUIRE(a.rows() == 4);
      CHECK(a.rowwise().sum().isApproxToConstant(1.0, 1e-12));
      CHECK(a.triangularView<Eigen::StrictlyUpper>().toDenseMatrix().isZero(0));
    }
  }
  // All of them in one array, layer by layer and head by head, each (n, n) row-major.
  const std::vector<double> all = pass.all_attention_weights();
  REQUIRE(all.size() == 2 * 2 * 16);
  for (int l = 0; l < 2; ++l) {
    for (int h = 0; h < 2; ++h) {
      for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j) {
          CHECK(all[static_cast<size_t>(((l * 2 + h) * 4 + i) * 4 + j)] ==
                pass.attention_weights(l, h)(i, j));
        }
      }
    }
  }
}

TEST_CASE("language model: logits for the last position alone equal the last row of all",
          "[language-model]") {
  auto model = tiny_model<double>();
  const std::vector<int> tokens = {5, 1, 1, 7, 2};
  const auto all = model.forward(tokens);
  const auto last = model.forward(tokens, attn::LogitRows::last_position);
  REQUIRE(last.logits.rows() == 1);
  CHECK(last.logits.isApprox(all.logits.bottomRows(1), 1e-12));
  // Every head's weights are whole and the same, though the last block kept its last row alone.
  CHECK(last.blocks.back().y().rows() == 1);
  CHECK(last.all_attention_weights() == all.all_attention_weights());
  // It kept too little to go back: refused, and no gradient is touched.
  model.zero_grad();
  CHECK_THROWS_WITH(model.backward(last, test::random_d(1, 9, 5)),
                    Catch::Contains("every position"));
  for (auto* p : model.parameters()) CHECK(p->grad.norm() == 0);
}

TEST_CASE("language model: a float pass of the last position agrees with the full one",
          "[language-model]") {
  auto model = tiny_model<float>();
  const std::vector<int> tokens = {3, 8, 1, 0, 6, 2};
  const auto all = model.forward(tokens);
  const auto last = model.forward(tokens, attn::LogitRows::last_position);
  CHECK(last.all_attention_weights() == all.all_attention_weights());
  CHECK(last.logits.isApprox(all.logits.bottomRows(1), 1e-5f));
}

TEST_CASE("language model: reading each edit of a text gives what a whole pass gives",
          "[language-model]") {
  // Float, as the page reads; the model moved off its initial weights so every part matters.
  auto model = tiny_model<float>();
  std::uint64_t seed = 300;
  for (attn::Parameter<float>* p : model.parameters()) {
    p->value += (test::random_d(static_cast<int>(p->value.rows()),
                                static_cast<int>(p->value.cols()), seed++) *
                 0.2)
                    .cast<float>();
  }
  // Typing at the end (a token changes, one is added or taken away), an edit in the middle, a
  // text that shares nothing with the one before, the same text again, one token, the context.
  const std::vector<std::vector<int>> edits = {
      {3, 8, 1}, {3, 8, 2},          {3, 8, 2, 5},      {3, 8, 2},
      {3, 8},    {3, 4, 2, 5},       {7, 7, 7, 7, 7},   {7, 7, 7, 7, 7},
      {0},       {0, 1, 2, 3, 4, 5}, {0, 1, 2, 3, 4, 6}};
  // The same bits where the linear layers' products are the fixed-order kernel's (a wasm build,
  // as on the page); natively they are Eigen's, whose order of summing may change with the
  // number of rows, and the same up to rounding.
  const auto same = [](const auto& read, const auto& whole) {
#ifdef __wasm_simd128__
    CHECK(read == whole);
#else
    const Eigen::Map<const Eigen::VectorXf> a(read.data(), static_cast<Eigen::Index>(read.size()));
    const Eigen::Map<const Eigen::VectorXf> b(whole.data(),
                                              static_cast<Eigen::Index>(whole.size()));
    REQUIRE(a.size() == b.size());
    CHECK(a.isApprox(b, 1e-5f));
#endif
  };
  attn::LanguageModelReading<float> reading;
  for (const std::vector<int>& tokens : edits) {
    INFO("tokens: " << tokens.size() << ", first " << tokens[0]);
    reading = model.read(tokens, reading);
    const auto whole = model.forward(tokens, attn::LogitRows::last_position);
    CHECK(reading.tokens == tokens);
    same(reading.weights, whole.all_attention_weights());
    same(reading.logits, whole.logits);
    // The kept keys and values are every position's, as the whole pass has them.
    for (size_t l = 0; l < 2; ++l) {
      same(reading.keys[l], whole.blocks[l].self_attention.attention.key.y);
      same(reading.values[l], whole.blocks[l].self_attention.attention.value.y);
    }
  }
}

TEST_CASE("language model: a reading of another model's shape, or of bad tokens, is refused",
          "[language-model]") {
  auto model = tiny_model<float>();
  attn::LanguageModelReading<float> reading = model.read({1, 2, 3}, {});
  attn::LanguageModelReading<float> wrong = reading;
  wrong.keys.pop_back();
  CHECK_THROWS_WITH(model.read({1, 2, 3, 4}, wrong), Catch::Contains("not one of a model"));
  wrong = reading;
  wrong.weights.pop_back();
  CHECK_THROWS_WITH(model.read({1, 2}, wrong), Catch::Contains("not one of a model"));
  CHECK_THROWS_WITH(model.read({1, 2, 9}, reading), Catch::Contains("tokens[2] = 9"));
  CHECK_THROWS_WITH(model.read({}, reading), Catch::Contains("1 to 6 tokens"));
  CHECK_THROWS_WITH(model.read({1, 2, 3, 4, 5, 6, 7}, reading), Catch::Contains("1 to 6 tokens"));
}

TEST_CASE("language model: a seed gives the same weights and the same float step, bit for bit",
          "[language-model]") {
  auto a = tiny_model<float>();
  auto b = tiny_model<float>();
  const auto pa = a.parameters(), pb = b.parameters();
  const float la = a.loss_and_backward(kInputs, kTargets);
  const float lb = b.loss_and_backward(kInputs, kTargets);
  CHECK(la == lb);
  for (size_t i = 0; i < pa.size(); ++i) {
    CHECK(pa[i]->value == pb[i]->value);
    CHECK(pa[i]->grad == pb[i]->grad);
  }
  // The double model starts from the same numbers (drawn in float).
  auto d = tiny_model<double>();
  CHECK(d.parameters()[0]->value == pa[0]->value.cast<double>());
  // Another seed, other weights.
  attn::LanguageModelConfig other = tiny_config();
  other.seed = 8;
  attn::LanguageModel<float> c(other, a.word_vectors());
  CHECK(c.parameters()[0]->value != pa[0]->value);
}

TEST_CASE("language model: logits start with about unit variance whatever the scale of E",
          "[language-model]") {
  attn::LanguageModelConfig c = tiny_config();
  c.vocab = 400;
  c.d_embed = 20;
  c.d_model = 16;
  c.context = 32;
  std::vector<int> tokens(32);
  for (int i = 0; i < 32; ++i) tokens[static_cast<size_t>(i)] = (i * 37) % 400;
  for (const double scale : {0.1, 1.0, 10.0}) {
    const attn::LanguageModel<double> model(
        c, attn::unit_normal(c.vocab, c.d_embed, 71).cast<double>() * scale);
    const MatD logits = model.forward(tokens).logits;
    const double var = (logits.array() - logits.mean()).square().mean();
    INFO("E scaled by " << scale);
    CHECK(var > 0.3);
    CHECK(var < 3.0);
  }
}

TEST_CASE("language model: bad configs and inputs are named", "[language-model]") {
  attn::LanguageModelConfig c = tiny_config();
  const MatD e = attn::unit_normal(9, 5, 1).cast<double>();
  c.heads = 3;
  CHECK_THROWS_WITH(attn::LanguageModel<double>(c, e), Catch::Contains("must divide d_model"));
  c = tiny_config();
  CHECK_THROWS_WITH(attn::LanguageModel<double>(c, MatD::Ones(9, 4)),
                    Catch::Contains("word vectors are 9x4 but the config asks for 9x5"));
  for (const float bad : {std::nanf(""), INFINITY, -INFINITY}) {
    attn::MatrixT<float> f = attn::unit_normal(9, 5, 1);
    f(8, 4) = bad;  // the last entry: past every whole group of four
    CHECK_THROWS_WITH(attn::LanguageModel<float>(c, f), Catch::Contains("NaN or infinity"));
    f(8, 4) = 0.5f;
    f(3, 1) = bad;
    CHECK_THROWS_WITH(attn::LanguageModel<float>(c, f), Catch::Contains("NaN or infinity"));
  }
  const auto model = tiny_model<double>();
  CHECK_THROWS_WITH(model.forward({}), Catch::Contains("1 to 6 tokens"));
  CHECK_THROWS_WITH(model.forward({1, 2, 3, 4, 5, 6, 7}), Catch::Contains("got 7"));
  CHECK_THROWS_WITH(model.forward({1, 9}), Catch::Contains("tokens[1] = 9"));
  CHECK_THROWS_WITH(model.loss({{1, 2}}, {{2}}), Catch::Contains("2 tokens but 1 targets"));
  CHECK_THROWS_WITH(model.loss({{1, 2}}, {{kIgnored, kIgnored}}),
                    Catch::Contains("every target of the batch is ignored"));
  CHECK_THROWS_WITH(model.loss({{1, 2}}, {{2, 9}}), Catch::Contains("target 9"));
}

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "attn/language_model.hpp"
#include "attn/lm_weights.hpp"
#include "attn/loss.hpp"
#include "helpers.hpp"

namespace {

using Mat = attn::MatrixT<float>;
using Bytes = std::vector<std::uint8_t>;
using Catch::Matchers::Contains;

attn::LanguageModelConfig small_config(std::uint64_t seed = 3) {
  // vocab, d_embed, d_model, layers, heads, d_mlp, context, seed, position_scale
  return {7, 3, 4, 2, 2, 8, 5, seed, 0.2f};
}

// A model of small_config whose every parameter is moved off its initial value.
attn::LanguageModel<float> trained_looking_model(std::uint64_t seed) {
  attn::LanguageModel<float> model(small_config(seed), test::random(7, 3, 50));
  std::uint64_t s = seed * 100;
  for (attn::Parameter<float>* p : model.parameters()) {
    p->value +=
        test::random(static_cast<int>(p->value.rows()), static_cast<int>(p->value.cols()), s++) *
        0.3f;
  }
  return model;
}

// The file of good, changed by edit, through the weights file's own reader and writer: a file
// every byte of which the container accepts, so that only the model's checks can refuse it.
template <typename Edit>
Bytes edited(const Bytes& good, Edit edit) {
  attn::WeightsFile f =
      attn::parse_weights_file(good.data(), good.size(), attn::kLanguageModelKind, "test");
  edit(f);
  return attn::encode_weights_file(f, "test");
}

void set_number(attn::WeightsFile& f, const char* name, std::uint32_t value) {
  for (auto& [key, v] : f.numbers) {
    if (key == name) v = value;
  }
}

}  // namespace

TEST_CASE("lm weights: the shapes listed are those of the model's parameters, in order",
          "[lm-weights]") {
  attn::LanguageModel<float> model(small_config(), test::random(7, 3, 1));
  const auto shapes = attn::language_model_parameter_shapes(model.config());
  const auto params = model.parameters();
  REQUIRE(shapes.size() == params.size());
  std::size_t count = 0;
  for (std::size_t i = 0; i < params.size(); ++i) {
    INFO(params[i]->name);
    CHECK(shapes[i].first == params[i]->value.rows());
    CHECK(shapes[i].second == params[i]->value.cols());
    count += static_cast<std::size_t>(params[i]->value.size());
  }
  CHECK(attn::language_model_parameter_count(model.config()) == count);
}

TEST_CASE("lm weights: a model written and read back predicts as its float16-rounded self",
          "[lm-weights]") {
  attn::LanguageModel<float> model = trained_looking_model(4);
  const Bytes bytes = attn::encode_language_model(model, 0xeaba90f4u);
  CHECK(std::memcmp(bytes.data(), "ATTNWTFL", 8) == 0);

  const attn::LanguageModelWeights w =
      attn::parse_language_model_weights(bytes.data(), bytes.size());
  CHECK(w.vocab_hash == 0xeaba90f4u);
  CHECK(w.config.vocab == 7);
  CHECK(w.config.d_embed == 3);
  CHECK(w.config.d_model == 4);
  CHECK(w.config.layers == 2);
  CHECK(w.config.heads == 2);
  CHECK(w.config.d_mlp == 8);
  CHECK(w.config.context == 5);
  const auto params = model.parameters();
  REQUIRE(w.values.size() == params.size());
  for (std::size_t i = 0; i < params.size(); ++i) {
    const Mat& original = params[i]->value;
    const Mat& back = w.values[i];
    REQUIRE(back.rows() == original.rows());
    REQUIRE(back.cols() == original.cols());
    for (Eigen::Index k = 0; k < original.size(); ++k) {
      const float x = original.data()[k], q = back.data()[k];
      // Within half a unit in the last place of float16 (11 significant bits).
      REQUIRE(std::abs(x - q) <= std::abs(x) * std::ldexp(1.0f, -11) + std::ldexp(1.0f, -25));
    }
  }

  // Loaded into a model of another seed, it gives the same logits (to float16 rounding) and
  // writes the very same bytes again.
  attn::LanguageModel<float> loaded(small_config(99), model.word_vectors());
  attn::load_language_model_weights(loaded, w);
  CHECK(attn::encode_language_model(loaded, 0xeaba90f4u) == bytes);
  const std::vector<int> tokens{1, 5, 0, 6, 2};
  const Mat a = model.forward(tokens).logits, b = loaded.forward(tokens).logits;
  CHECK((a - b).cwiseAbs().maxCoeff() < 0.02f);
  CHECK((a - b).cwiseAbs().maxCoeff() > 0.0f);  // float16 did round something

  attn::LanguageModelConfig other = small_config();
  other.d_mlp = 16;
  attn::LanguageModel<float> wrong(other, model.word_vectors());
  CHECK_THROWS_AS(attn::load_language_model_weights(wrong, w), attn::InvalidArgument);
}

TEST_CASE("lm weights: bytes that are not such a file are refused, saying why", "[lm-weights]") {
  attn::LanguageModel<float> model = trained_looking_model(5);
  const Bytes good = attn::encode_language_model(model, 1);
  const auto parse = [](const Bytes& b) {
    return attn::parse_language_model_weights(b.data(), b.size());
  };
  REQUIRE_NOTHROW(parse(good));

  Bytes b = good;
  b[0] = 'X';
  CHECK_THROWS_WITH(parse(b), Contains("language model weights: not a weights file"));
  CHECK_THROWS_WITH(attn::parse_language_model_weights(good.data(), good.size() - 1),
                    Contains("truncated"));
  CHECK_THROWS_AS(attn::parse_language_model_weights(nullptr, 0), attn::InvalidArgument);
  b = edited(good, [](attn::WeightsFile& f) { f.kind = "translators"; });
  CHECK_THROWS_WITH(parse(b), Contains("the file holds translators, not language-model"));
  b = edited(good, [](attn::WeightsFile& f) { set_number(f, "vocab", 1); });
  CHECK_THROWS_WITH(parse(b), Contains("vocab is 1; it must be from 2"));
  b = edited(good, [](attn::WeightsFile& f) { set_number(f, "heads", 3); });
  CHECK_THROWS_WITH(parse(b), Contains("heads (3) must divide d_model (4)"));
  b = edited(good, [](attn::WeightsFile& f) { f.numbers.erase(f.numbers.begin() + 5); });
  CHECK_THROWS_WITH(parse(b), Contains("the file has no number d_mlp"));
  b = edited(good, [](attn::WeightsFile& f) { set_number(f, "d_mlp", 9); });
  CHECK_THROWS_WITH(parse(b), Contains("the tensor block0.mlp"));
  b = edited(good, [](attn::WeightsFile& f) { f.tensors.pop_back(); });
  CHECK_THROWS_WITH(parse(b), Contains("the file has 38 tensors under \"\"; the model has 39"));
  // Two tensors of one shape swapped: the reader keeps their names, and building the model from
  // them says which is where.
  b = edited(good, [](attn::WeightsFile& f) { std::swap(f.tensors[5].name, f.tensors[7].name); });
  attn::LanguageModelWeights swapped = parse(b);
  CHECK_THROWS_WITH(attn::make_language_model(std::move(swapped), model.word_vectors()),
                    Contains("the file's tensor 5 is block0.attention.W_k where the model has "
                             "block0.attention.W_q"));

  // A value float16 cannot hold is refused when writing.
  model.parameters()[0]->value(0, 0) = 1e6f;
  CHECK_THROWS_WITH(attn::encode_language_model(model, 1),
                    Contains("language model weights") && Contains("float16"));
}

namespace {

// The message of the InvalidArgument f throws, or "" when it throws none.
template <typename F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const attn::InvalidArgument& e) {
    return e.what();
  }
  return "";
}

// The model the file describes, made without from_weights: a seeded model of its config, then
// every parameter overwritten by load_language_model_weights.
attn::LanguageModel<float> seeded_then_loaded(const attn::LanguageModelWeights& w, const Mat& e) {
  attn::LanguageModel<float> model(w.config, e);
  attn::load_language_model_weights(model, w);
  return model;
}

attn::LanguageModel<float> from_weights(attn::LanguageModelWeights w, Mat e) {
  return attn::LanguageModel<float>::from_weights(w.config, std::move(e), std::move(w.values));
}

}  // namespace

TEST_CASE("lm weights: a model built from the weights is the seeded one loaded, bit for bit",
          "[lm-weights]") {
  attn::LanguageModel<float> trained = trained_looking_model(6);
  const Bytes bytes = attn::encode_language_model(trained, 0x1234u);
  const attn::LanguageModelWeights w =
      attn::parse_language_model_weights(bytes.data(), bytes.size());
  attn::LanguageModel<float> old = seeded_then_loaded(w, trained.word_vectors());
  attn::LanguageModel<float> built = from_weights(w, trained.word_vectors());

  // The same parameters, named alike, in the same order; none has a gradient yet.
  const auto po = old.parameters(), pb = built.parameters();
  REQUIRE(po.size() == pb.size());
  for (std::size_t i = 0; i < po.size(); ++i) {
    INFO(po[i]->name);
    CHECK(pb[i]->name == po[i]->name);
    CHECK(pb[i]->value == po[i]->value);
    CHECK(pb[i]->grad.size() == 0);
  }
  CHECK(built.word_vectors() == old.word_vectors());
  CHECK(attn::encode_language_model(built, 0x1234u) == bytes);

  // The same logits and attention weights, exactly, for every kind of pass.
  for (const std::vector<int>& tokens :
       {std::vector<int>{1, 5, 0, 6, 2}, std::vector<int>{3}, std::vector<int>{6, 6, 4}}) {
    for (const attn::LogitRows rows :
         {attn::LogitRows::every_position, attn::LogitRows::last_position}) {
      const attn::LanguageModelPass<float> a = old.forward(tokens, rows);
      const attn::LanguageModelPass<float> b = built.forward(tokens, rows);
      CHECK(b.logits == a.logits);
      CHECK(b.all_attention_weights() == a.all_attention_weights());
    }
  }
}

TEST_CASE("lm weights: a model built from the weights trains as the seeded one loaded",
          "[lm-weights]") {
  attn::LanguageModel<float> trained = trained_looking_model(7);
  const Bytes bytes = attn::encode_language_model(trained, 1);
  const attn::LanguageModelWeights w =
      attn::parse_language_model_weights(bytes.data(), bytes.size());
  attn::LanguageModel<float> old = seeded_then_loaded(w, trained.word_vectors());
  attn::LanguageModel<float> built = from_weights(w, trained.word_vectors());
  const std::vector<std::vector<int>> inputs{{1, 5, 0, 6}, {2, 3}};
  const std::vector<std::vector<int>> targets{{5, 0, 6, 2}, {3, attn::kIgnoredTarget}};
  // Its first backward gives it zero gradients to add into; twice adds twice, as for any model.
  for (int step = 0; step < 2; ++step) {
    CHECK(built.loss_and_backward(inputs, targets) == old.loss_and_backward(inputs, targets));
    const auto po = old.parameters(), pb = built.parameters();
    for (std::size_t i = 0; i < po.size(); ++i) {
      INFO(po[i]->name);
      CHECK(pb[i]->grad == po[i]->grad);
    }
  }
  built.zero_grad();
  for (const attn::Parameter<float>* p : built.parameters()) {
    CHECK(p->grad == Mat::Zero(p->value.rows(), p->value.cols()));
  }
}

TEST_CASE("lm weights: a model is not built from bad weights, with the old messages",
          "[lm-weights]") {
  attn::LanguageModel<float> trained = trained_looking_model(8);
  const Bytes bytes = attn::encode_language_model(trained, 1);
  const attn::LanguageModelWeights good =
      attn::parse_language_model_weights(bytes.data(), bytes.size());
  const Mat e = trained.word_vectors();
  // Each bad case is refused by both ways, saying the same.
  const auto same_refusal = [&](const attn::LanguageModelWeights& w, const Mat& vectors,
                                const char* expected) {
    const std::string old = message_of([&] { seeded_then_loaded(w, vectors); });
    const std::string built = message_of([&] { from_weights(w, vectors); });
    INFO(old);
    CHECK_THAT(old, Contains(expected));
    CHECK(built == old);
  };
  attn::LanguageModelWeights w = good;
  w.values.pop_back();
  same_refusal(w, e, "language model weights: the weights hold 38 parameters, the model 39");
  w = good;
  w.values[5] = Mat::Zero(4, 3);  // block0.attention.W_q, 4x4
  same_refusal(w, e, "language model weights: parameter block0.attention.W_q has another shape");
  w = good;
  w.values.back() = Mat::Zero(1, 6);  // b_out, 1x7
  same_refusal(w, e, "parameter b_out has another shape");
  w = good;
  w.config.heads = 3;
  same_refusal(w, e, "language model: heads (3) must divide d_model (4)");
  w = good;
  w.config.layers = 0;
  same_refusal(w, e, "language model: layers must be between 1 and 64, got 0");
  same_refusal(good, Mat::Ones(7, 4), "word vectors are 7x4 but the config asks for 7x3");
  for (const float bad : {std::nanf(""), INFINITY, -INFINITY}) {
    Mat f = e;
    f(6, 2) = bad;
    same_refusal(good, f, "the word vectors contains NaN or infinity");
    f = e;
    f(2, 0) = bad;
    same_refusal(good, f, "the word vectors contains NaN or infinity");
  }
  same_refusal(good, Mat::Zero(7, 3), "language model: the word vectors are all zero");
  Mat one = Mat::Zero(7, 3);
  one(5, 1) = -1e-30f;  // a single entry not 0 is enough
  CHECK_NOTHROW(from_weights(good, one));
  CHECK_NOTHROW(seeded_then_loaded(good, one));
}

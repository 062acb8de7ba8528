#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "attn/transformer_translator.hpp"
#include "attn/translation_text.hpp"
#include "gradient_check.hpp"
#include "translation_fixtures.hpp"

using attn::NormPlace;
using test::MatD;

namespace {

// Both places of the layer norms: every test of the model runs on each.
constexpr NormPlace kPlaces[] = {NormPlace::pre, NormPlace::post};

// Runs check(place) for each place, the place named in the test's messages.
template <typename Check>
void for_each_place(const Check& check) {
  for (const NormPlace place : kPlaces) {
    INFO((place == NormPlace::pre ? "pre-LN" : "post-LN"));
    check(place);
  }
}

// A tiny model: 6 English words of width 3 (id 6 unknown), 9 German ids (4 special), d_model 8 in
// 2 heads, one block on each side with an MLP of 12.
attn::TransformerTranslatorConfig tiny_config(int layers = 1, NormPlace place = NormPlace::pre) {
  // source_words, source_width, target_words, d_model, heads, encoder_layers, decoder_layers,
  // d_mlp, seed, norm_place
  return {6, 3, 9, 8, 2, layers, layers, 12, 5, place};
}

template <typename T>
attn::TransformerTranslator<T> tiny_model(int layers = 1, NormPlace place = NormPlace::pre) {
  return attn::TransformerTranslator<T>(tiny_config(layers, place),
                                        test::random_d(6, 3, 40).cast<T>());
}

// tiny_model in double with the zero-initialised parameters (biases, the unknown word) and the
// unit gains started away from their start, so that every path carries a gradient.
attn::TransformerTranslator<double> gradient_model(NormPlace place) {
  auto model = tiny_model<double>(2, place);
  std::uint64_t seed = 41;
  for (auto* p : model.parameters()) {
    const MatD noise = test::random_d(p->value.rows(), p->value.cols(), seed++) * 0.3;
    if (p->value.isZero(0) || (p->value.array() == 1.0).all()) p->value += noise;
  }
  return model;
}

// tiny_model in float with two blocks a side and every weight moved away from its start (noise of
// scale 0.5 from seeds first_seed, first_seed + 1, ...), so that the logits differ enough to order.
attn::TransformerTranslator<float> moved_model(std::uint64_t first_seed,
                                               NormPlace place = NormPlace::pre) {
  auto model = tiny_model<float>(2, place);
  std::uint64_t seed = first_seed;
  for (auto* p : model.parameters()) {
    p->value += (test::random_d(p->value.rows(), p->value.cols(), seed++) * 0.5).cast<float>();
  }
  return model;
}

}  // namespace

TEST_CASE(
    "transformer translator: every parameter's gradient matches central differences, with "
    "padding, with and without label smoothing",
    "[transformer-translator]") {
  for_each_place([](NormPlace place) {
    for (const double smoothing : {0.0, 0.1}) {
      INFO("label smoothing " << smoothing);
      auto model = gradient_model(place);
      const attn::TranslationBatch batch = test::tiny_translation_batch();
      test::check_every_gradient(model, model.forward(batch, 0, nullptr, smoothing),
                                 [&] { return model.forward(batch, 0, nullptr, smoothing).loss; });
    }
  });
}

TEST_CASE("transformer translator: with dropout, the gradient matches the same masks' differences",
          "[transformer-translator]") {
  for_each_place([](NormPlace place) {
    auto model = gradient_model(place);
    test::check_dropout_gradients(model, [](const auto& pass) {
      REQUIRE(pass.source_mask.size() > 0);
      REQUIRE(pass.target_mask.size() > 0);
    });
  });
}

TEST_CASE("transformer translator: a pair's loss does not depend on the pairs padded beside it",
          "[transformer-translator]") {
  for_each_place(
      [](NormPlace place) { test::check_pairs_independent(tiny_model<double>(1, place)); });
}

TEST_CASE("transformer translator: shapes, names and checks", "[transformer-translator]") {
  auto model = tiny_model<float>(2);
  const auto shapes = attn::transformer_translator_parameter_shapes(model.config());
  const auto params = model.parameters();
  REQUIRE(shapes.size() == params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    INFO(params[i]->name);
    CHECK(params[i]->value.rows() == shapes[i].first);
    CHECK(params[i]->value.cols() == shapes[i].second);
  }
  CHECK(params.front()->name == "unknown");
  CHECK(params[3]->name == "encoder0.norm1.gain");
  CHECK(params.back()->name == "logit_b");
  // Post-LN: the same blocks, no final norms; the other parameters draw the same numbers.
  auto post = tiny_model<float>(2, NormPlace::post);
  const auto post_params = post.parameters();
  const auto post_shapes = attn::transformer_translator_parameter_shapes(post.config());
  REQUIRE(post_shapes.size() == post_params.size());
  REQUIRE(post_params.size() == params.size() - 4);
  size_t at = 0;
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i]->name.rfind("encoder_norm.", 0) == 0) continue;
    if (params[i]->name.rfind("decoder_norm.", 0) == 0) continue;
    INFO(params[i]->name);
    REQUIRE(post_params[at]->name == params[i]->name);
    CHECK(post_params[at]->value.rows() == post_shapes[at].first);
    CHECK(post_params[at]->value.cols() == post_shapes[at].second);
    CHECK(post_params[at]->value == params[i]->value);
    ++at;
  }
  auto bad = tiny_config();
  bad.heads = 3;
  CHECK_THROWS_AS(attn::check_transformer_translator_config(bad), attn::InvalidArgument);
  bad = tiny_config();
  bad.target_words = 4;
  CHECK_THROWS_AS(attn::check_transformer_translator_config(bad), attn::InvalidArgument);
  attn::Rng rng(1);
  CHECK_THROWS_AS(model.forward(test::tiny_translation_batch(), 0.2), attn::InvalidArgument);
  CHECK_THROWS_AS(model.forward(test::tiny_translation_batch(), 0, nullptr, 1.0),
                  attn::InvalidArgument);
  attn::TranslationBatch wrong = test::tiny_translation_batch();
  wrong.targets[0][0] = 2;  // </s> inside a sentence
  CHECK_THROWS_AS(model.forward(wrong), attn::InvalidArgument);
  CHECK_THROWS_AS(model.translate({}, 5), attn::InvalidArgument);
  CHECK_THROWS_AS(model.translate({1}, 5, 0), attn::InvalidArgument);
  CHECK_THROWS_AS(model.translate({1}, attn::kMaxTranslationLength), attn::InvalidArgument);
}

namespace {

void check_greedy_against_whole_decoder(const attn::TransformerTranslator<float>& model) {
  const std::vector<int> source{0, 4, 6, 2, 5};
  const attn::TransformerTranslation greedy = model.translate(source, 12);
  const attn::TransformerTranslation beam1 = model.translate(source, 12, 1);
  CHECK(greedy.translation.words == beam1.translation.words);
  CHECK(greedy.cross_weights == beam1.cross_weights);
  const auto steps = static_cast<Eigen::Index>(greedy.translation.words.size()) + 1;
  REQUIRE(greedy.cross_weights.size() == static_cast<size_t>(2 * 2 * steps * 5));
  REQUIRE(greedy.step_log_probabilities.size() == static_cast<size_t>(steps));

  // Step by step without a cache: the whole decoder over <s> and the ids so far, its last row's
  // choice (of the ids it may write, the first of equal logits) and log-probability.
  std::vector<int> prefix;
  double total = 0;
  for (Eigen::Index t = 0; t < steps; ++t) {
    const attn::MatrixT<float> logits = model.logits(source, prefix);
    REQUIRE(logits.rows() == t + 1);
    const auto row = logits.row(t);
    int best = attn::kTargetEnd;
    for (int v = attn::kTargetEnd; v < 9; ++v) {
      if (t == 12) break;  // after max_words only </s>
      if (row(v) > row(best)) best = v;
    }
    double sum = 0;
    for (int v = attn::kTargetEnd; v < 9; ++v) sum += std::exp(double(row(v) - row(best)));
    const double log_p = -std::log(sum);
    CHECK(greedy.step_log_probabilities[static_cast<size_t>(t)] == Approx(log_p).margin(1e-5));
    total += log_p;
    if (t + 1 < steps) {
      REQUIRE(best == greedy.translation.words[static_cast<size_t>(t)]);
      prefix.push_back(best);
    } else {
      CHECK(best == attn::kTargetEnd);
    }
  }
  CHECK(greedy.translation.log_probability == Approx(total).margin(1e-5));
}

void check_cache_against_whole_decoder(const attn::TransformerTranslator<float>& model) {
  const std::vector<int> source{3, 1, 6};
  const attn::TransformerTranslation out = model.translate(source, 8);
  const auto steps = static_cast<Eigen::Index>(out.translation.words.size()) + 1;
  // The whole decoder over the chosen ids, with its passes, through forward() on one pair.
  attn::TranslationBatch batch;
  batch.sources = {source};
  batch.targets = {out.translation.words};
  const auto pass = model.forward(batch);
  const auto& pair = pass.pairs[0];
  float worst = 0;
  for (int l = 0; l < 2; ++l) {
    for (int j = 0; j < 2; ++j) {
      const auto& w = pair.decoder[static_cast<size_t>(l)].cross_weights(j);  // (steps, 3)
      REQUIRE(w.rows() == steps);
      for (Eigen::Index t = 0; t < steps; ++t) {
        for (Eigen::Index k = 0; k < 3; ++k) {
          const float cached =
              out.cross_weights[static_cast<size_t>(((l * 2 + j) * steps + t) * 3 + k)];
          worst = std::max(worst, std::abs(cached - w(t, k)));
        }
      }
    }
  }
  CHECK(worst <= 1e-6f);
  // Each row of the cross-attention is a distribution; the translation's weights average the
  // last layer's heads.
  for (Eigen::Index t = 0; t < steps; ++t) {
    CHECK(out.translation.weights.row(t).sum() == Approx(1.0f).margin(1e-5));
  }
  CHECK(out.translation.scores.cols() == 0);
}

}  // namespace

TEST_CASE(
    "transformer translator: greedy decoding with the cache is beam 1 and agrees with the "
    "decoder recomputed whole at every step",
    "[transformer-translator]") {
  for_each_place(
      [](NormPlace place) { check_greedy_against_whole_decoder(moved_model(90, place)); });
}

TEST_CASE(
    "transformer translator: the cached steps' logits and cross-attention match the whole "
    "decoder's within 1e-6",
    "[transformer-translator]") {
  for_each_place(
      [](NormPlace place) { check_cache_against_whole_decoder(moved_model(190, place)); });
}

TEST_CASE("transformer translator: a beam search finds a translation at least as likely per lp",
          "[transformer-translator]") {
  auto model = moved_model(290);
  const std::vector<int> source{0, 1, 2, 3};
  const auto greedy = model.translate(source, 10, 1);
  const auto wide = model.translate(source, 10, 4);
  const auto score = [](const attn::TransformerTranslation& t) {
    return t.translation.log_probability /
           attn::translation_length_penalty(static_cast<int>(t.translation.words.size()) + 1);
  };
  CHECK(score(wide) >= score(greedy) - 1e-6);
  float sum = 0;
  for (const float lp : wide.step_log_probabilities) sum += lp;
  CHECK(sum == Approx(wide.translation.log_probability).margin(1e-4));
}

namespace {

void check_from_weights(attn::TransformerTranslator<float> model) {
  std::vector<attn::MatrixT<float>> values;
  for (auto* p : model.parameters()) values.push_back(p->value);
  const auto copy = attn::TransformerTranslator<float>::from_weights(
      model.config(), std::make_shared<const attn::MatrixT<float>>(model.word_vectors()), values);
  CHECK(copy.forward(test::tiny_translation_batch()).loss ==
        model.forward(test::tiny_translation_batch()).loss);
  values.pop_back();
  CHECK_THROWS_AS(attn::TransformerTranslator<float>::from_weights(
                      model.config(),
                      std::make_shared<const attn::MatrixT<float>>(model.word_vectors()), values),
                  attn::InvalidArgument);
}

}  // namespace

TEST_CASE("transformer translator: from_weights gives the same numbers as the model it copies",
          "[transformer-translator]") {
  for_each_place([](NormPlace place) { check_from_weights(tiny_model<float>(1, place)); });
}

TEST_CASE("transformer translator: its translation reads as words, <unk> copied from the English",
          "[transformer-translator]") {
  auto model = moved_model(390);
  // Make <unk> the likeliest first piece: its logit bias far above the others'.
  model.parameters().back()->value(0, attn::kTargetUnknown) = 100;
  const attn::TransformerTranslation out = model.translate({0, 4, 1}, 3);
  REQUIRE(!out.translation.words.empty());
  REQUIRE(out.translation.words[0] == attn::kTargetUnknown);
  const attn::GermanVocabulary vocabulary({"<pad>", "<s>", "</s>", "<unk>", "\u2581das",
                                           "\u2581haus", "chen", "\u2581ist", "\u2581gro\u00df"});
  const attn::ReadableTranslation read =
      attn::readable_translation(out.translation, vocabulary, {"the", "house", "is"});
  REQUIRE(!read.words.empty());
  // The <unk> stands for the English token its row (the last layer's heads averaged) weighs most.
  Eigen::Index most = 0;
  out.translation.weights.row(0).maxCoeff(&most);
  CHECK(read.copied[0] == most);
  CHECK(read.weights.cols() == 3);
}

namespace {

// x: (n, d) -> row i's root mean square
double row_rms(const Eigen::MatrixXf& x, Eigen::Index i) {
  return std::sqrt(static_cast<double>(x.row(i).squaredNorm()) / static_cast<double>(x.cols()));
}

void check_encoder_trace(NormPlace place) {
  const auto model = moved_model(290, place);
  const std::vector<int> source{3, 1, 6, 2};
  const attn::TransformerTranslation out = model.translate(source, 6);
  const attn::TransformerEncoderTrace& trace = out.encoder;
  // The encoder as forward() runs it, on the same sentence.
  attn::TranslationBatch batch;
  batch.sources = {source};
  batch.targets = {out.translation.words};
  const auto pair = model.forward(batch).pairs[0];
  const Eigen::Index n = 4;
  const int layers = 2, heads = 2;
  REQUIRE(trace.layers == layers);
  REQUIRE(trace.heads == heads);
  REQUIRE(trace.weights.size() == static_cast<size_t>(layers * heads * n * n));
  REQUIRE(trace.stream_rms.size() == static_cast<size_t>((2 * layers + 1) * n));
  REQUIRE(trace.input_cosine.size() == trace.stream_rms.size());
  REQUIRE(trace.read_rms.size() == static_cast<size_t>(2 * layers * n));
  REQUIRE(trace.write_rms.size() == trace.read_rms.size());
  const auto at = [n](int row, Eigen::Index i) { return static_cast<size_t>(row * n + i); };
  for (int l = 0; l < layers; ++l) {
    const auto& block = pair.encoder[static_cast<size_t>(l)];
    for (int j = 0; j < heads; ++j) {
      for (Eigen::Index i = 0; i < n; ++i) {
        for (Eigen::Index k = 0; k < n; ++k) {
          CHECK(trace.weights[static_cast<size_t>(((l * heads + j) * n + i) * n + k)] ==
                block.weights(j)(i, k));
        }
      }
    }
    for (Eigen::Index i = 0; i < n; ++i) {
      CHECK(trace.stream_rms[at(2 * l + 1, i)] ==
            Approx(row_rms(block.self_attention.y, i)).epsilon(1e-6));
      CHECK(trace.stream_rms[at(2 * l + 2, i)] == Approx(row_rms(block.y(), i)).epsilon(1e-6));
      CHECK(trace.write_rms[at(2 * l, i)] ==
            Approx(row_rms(block.self_attention.attention.output.y, i)).epsilon(1e-6));
      CHECK(trace.write_rms[at(2 * l + 1, i)] ==
            Approx(row_rms(block.mlp.mlp.output.y, i)).epsilon(1e-6));
      if (place == NormPlace::pre) {
        CHECK(trace.read_rms[at(2 * l, i)] ==
              Approx(row_rms(block.self_attention.norm.y, i)).epsilon(1e-6));
        CHECK(trace.read_rms[at(2 * l + 1, i)] ==
              Approx(row_rms(block.mlp.norm.y, i)).epsilon(1e-6));
      } else {
        // Post-LN a sublayer reads the stream as the stage before left it.
        CHECK(trace.read_rms[at(2 * l, i)] == trace.stream_rms[at(2 * l, i)]);
        CHECK(trace.read_rms[at(2 * l + 1, i)] == trace.stream_rms[at(2 * l + 1, i)]);
      }
    }
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    CHECK(trace.input_cosine[at(0, i)] == Approx(1.0f).margin(1e-6));
    for (int s = 1; s <= 2 * layers; ++s) {
      CHECK(std::abs(trace.input_cosine[at(s, i)]) <= 1.0f + 1e-6f);
    }
  }
  if (place == NormPlace::pre) {
    // Pre-LN the stream is the input plus every write: the first attention's input is what its
    // output was added to.
    const auto& first = pair.encoder[0].self_attention;
    const Eigen::MatrixXf a = first.y - first.attention.output.y;
    for (Eigen::Index i = 0; i < n; ++i) {
      CHECK(trace.stream_rms[at(0, i)] == Approx(row_rms(a, i)).epsilon(1e-5));
    }
  }
}

}  // namespace

TEST_CASE(
    "transformer translator: the encoder's trace is its self-attention and the stream's sizes "
    "as forward() computes them",
    "[transformer-translator]") {
  for_each_place(check_encoder_trace);
}

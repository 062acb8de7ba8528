// Shared by the translation models' tests (the recurrent translators' and the Transformer's): the
// tiny batches and toy corpus they train on, the check that a pair's loss ignores the pair padded
// beside it, and the German vocabulary and the damaged files their weights tests read.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "attn/random.hpp"
#include "attn/translation_corpus.hpp"
#include "attn/weights_file.hpp"
#include "gradient_check.hpp"

namespace test {

// Two pairs of different lengths, so the shorter English sentence is padded, with an unknown
// English word (6, for 6 English words) and an unknown German one (3); for 8 or more German ids.
inline attn::TranslationBatch tiny_translation_batch() {
  attn::TranslationBatch batch;
  batch.sources = {{0, 4, 6, 2}, {5, 1}};
  batch.targets = {{4, 7, 3}, {6}};
  return batch;
}

// Checks that model's mean loss over the tiny batch is its two pairs' own losses weighted by their
// tokens: a pair's loss does not depend on the pair padded beside it.
template <typename Model>
void check_pairs_independent(const Model& model) {
  const attn::TranslationBatch both = tiny_translation_batch();
  attn::TranslationBatch first, second;
  first.sources = {both.sources[0]};
  first.targets = {both.targets[0]};
  second.sources = {both.sources[1]};
  second.targets = {both.targets[1]};
  const auto pass = model.forward(both);
  const auto a = model.forward(first), b = model.forward(second);
  CHECK(pass.counted == 6);  // 3 + 1 words and two end markers
  // The batch's mean over 6 tokens = (4 a + 2 b) / 6.
  CHECK(pass.loss == Approx((a.loss * 4 + b.loss * 2) / 6).epsilon(1e-12));
}

// The gradient of model's loss on the tiny batch with dropout: each pass draws its masks from a
// generator of the same seed, so that the loss is a smooth function of the weights for those
// masks. check_masks(pass) checks the pass's masks; dropout must change the loss, and every
// parameter's gradient must match central differences.
template <typename Model, typename CheckMasks>
void check_dropout_gradients(Model& model, CheckMasks check_masks) {
  constexpr double kRate = 0.3;
  const attn::TranslationBatch batch = tiny_translation_batch();
  const auto pass_with = [&] {
    attn::Rng rng(77);
    return model.forward(batch, kRate, &rng);
  };
  const auto pass = pass_with();
  check_masks(pass);
  CHECK(pass.loss != model.forward(batch).loss);
  check_every_gradient(model, pass, [&] { return pass_with().loss; });
}

// 30 pairs of a toy language: English word i (ids 0..5) is German id i + 4, in reverse order.
inline std::vector<attn::SentencePair> toy_translation_pairs() {
  std::vector<attn::SentencePair> pairs;
  attn::Rng rng(3);
  for (int i = 0; i < 30; ++i) {
    attn::SentencePair p;
    const int n = 1 + static_cast<int>(rng.next_u32() % 4);
    for (int j = 0; j < n; ++j) p.english.push_back(static_cast<int>(rng.next_u32() % 6));
    for (int j = n - 1; j >= 0; --j) p.german.push_back(p.english[j] + 4);
    pairs.push_back(p);
  }
  return pairs;
}

// A German vocabulary of 7 ids, the four special ones first, as a weights file keeps it.
inline const std::string kGermanVocabulary = "<pad>\n<s>\n</s>\n<unk>\nhaus\ndas\nich\n";

// The weights tests' word vectors: 9 English words of width 5.
inline attn::MatrixT<float> weights_test_vectors() {
  return attn::unit_normal(9, 5, 3).cast<float>();
}

// good: a whole weights file of `kind` -> edited(edit): good with edit applied to its WeightsFile,
// through the weights file's own reader and writer, so that only the model's checks can refuse it.
inline auto weights_file_editor(const std::vector<std::uint8_t>& good, std::string_view kind) {
  return [&good, kind](auto edit) {
    attn::WeightsFile f = attn::parse_weights_file(good.data(), good.size(), kind, "test");
    edit(f);
    return attn::encode_weights_file(f, "test");
  };
}

// Sets the file's number `name` to value.
inline void set_number(attn::WeightsFile& f, const char* name, std::uint32_t value) {
  for (auto& [key, v] : f.numbers) {
    if (key == name) v = value;
  }
}

// original: a model's parameters, back: those of the model read back from its 8-bit file. Checks
// that they match one for one, each value within half a step (its row's largest |value| / 127) of
// the original.
inline void check_within_half_step(const std::vector<attn::Parameter<float>*>& original,
                                   const std::vector<attn::Parameter<float>*>& back) {
  REQUIRE(original.size() == back.size());
  for (std::size_t i = 0; i < original.size(); ++i) {
    INFO(original[i]->name);
    for (Eigen::Index r = 0; r < original[i]->value.rows(); ++r) {
      const float step = original[i]->value.row(r).cwiseAbs().maxCoeff() / 127.0f;
      CHECK((original[i]->value.row(r) - back[i]->value.row(r)).cwiseAbs().maxCoeff() <=
            step * 0.5f * 1.0001f);
    }
  }
}

// Adds a float32 tensor `name` of one value to the file.
inline void add_tensor(attn::WeightsFile& f, const char* name) {
  f.tensors.push_back({name, attn::TensorEncoding::float32, attn::MatrixT<float>::Ones(1, 1)});
}

// good: a whole weights file; fails_with(bytes, what) checks that reading bytes fails naming what.
// Cuts it short, adds a byte and breaks its magic.
template <typename FailsWith>
void check_damaged_bytes_refused(const std::vector<std::uint8_t>& good, FailsWith fails_with) {
  fails_with({good.begin(), good.begin() + 30}, "truncated");
  fails_with({good.begin(), good.end() - 1}, "truncated");
  std::vector<std::uint8_t> longer = good;
  longer.push_back(0);
  fails_with(longer, "extra bytes");
  std::vector<std::uint8_t> magic = good;
  magic[1] = 'X';
  fails_with(magic, "not a weights file");
}

// edited(edit) -> the file with edit applied to its WeightsFile; fails_with as above. Checks the
// German vocabulary's refusals, which every translation model's file shares: an unterminated last
// word, a word too many.
template <typename Edited, typename FailsWith>
void check_vocabulary_refused(Edited edited, FailsWith fails_with) {
  fails_with(edited([](auto& f) { f.texts[0].second.pop_back(); }), "last word has no newline");
  fails_with(edited([](auto& f) { f.texts[0].second += "neu\n"; }),
             "the vocabulary has 8 words but target_words is 7");
}

}  // namespace test

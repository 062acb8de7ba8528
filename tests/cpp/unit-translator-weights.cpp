#include <catch2/catch.hpp>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "attn/embeddings.hpp"
#include "attn/translator_weights.hpp"
#include "attn/weights_file.hpp"
#include "gradient_check.hpp"
#include "translation_fixtures.hpp"

using attn::Bridge;

namespace {

attn::TranslatorConfig small_config(Bridge bridge) {
  // bridge, source_words, source_width, target_words, target_width, encoder_state, decoder_state,
  // attention, seed
  return {bridge, 9, 5, 7, 4, 3, 6, 2, 2};
}

std::vector<std::uint8_t> both_models() {
  attn::Translator<float> fixed(small_config(Bridge::fixed_vector), test::weights_test_vectors());
  attn::Translator<float> attending(small_config(Bridge::attention), test::weights_test_vectors());
  return attn::encode_translators({&fixed, &attending}, test::kGermanVocabulary, 0x5eed);
}

}  // namespace

TEST_CASE(
    "translator weights: both models and the vocabulary come back, each value within half "
    "a step of its row's scale",
    "[translator-weights]") {
  attn::Translator<float> fixed(small_config(Bridge::fixed_vector), test::weights_test_vectors());
  attn::Translator<float> attending(small_config(Bridge::attention), test::weights_test_vectors());
  const std::vector<std::uint8_t> bytes =
      attn::encode_translators({&fixed, &attending}, test::kGermanVocabulary, 0x5eed);
  const attn::TranslatorWeights w = attn::parse_translators(bytes.data(), bytes.size());
  CHECK(w.english_hash == 0x5eed);
  CHECK(w.german_words ==
        std::vector<std::string>{"<pad>", "<s>", "</s>", "<unk>", "haus", "das", "ich"});
  REQUIRE(w.models.size() == 2);
  const attn::Translator<float> read =
      attn::make_translator(w, Bridge::attention, test::weights_test_vectors());
  test::check_within_half_step(attending.parameters(),
                               const_cast<attn::Translator<float>&>(read).parameters());
  // The file's models are the dequantised ones: encoding them again gives the same bytes.
  attn::Translator<float> fixed_back =
      attn::make_translator(w, Bridge::fixed_vector, test::weights_test_vectors());
  attn::Translator<float> attention_back =
      attn::make_translator(w, Bridge::attention, test::weights_test_vectors());
  CHECK(attn::encode_translators({&fixed_back, &attention_back}, test::kGermanVocabulary, 0x5eed) ==
        bytes);
}

TEST_CASE("translator weights: every broken field is named", "[translator-weights]") {
  const std::vector<std::uint8_t> good = both_models();
  auto fails_with = [](const std::vector<std::uint8_t>& b, const char* what) {
    CHECK_THROWS_WITH(attn::parse_translators(b.data(), b.size()),
                      Catch::Contains("translator") && Catch::Contains(what));
  };
  const auto edited = test::weights_file_editor(good, attn::kTranslatorsKind);
  test::check_damaged_bytes_refused(good, fails_with);
  fails_with(edited([](attn::WeightsFile& f) { f.kind = "language-model"; }),
             "the file holds language-model, not translators");
  fails_with(edited([&](attn::WeightsFile& f) { test::set_number(f, "target_words", 3); }),
             "target_words must be between 5");
  fails_with(edited([&](attn::WeightsFile& f) { test::set_number(f, "attention", 1u << 25); }),
             "attention is 33554432; it must be from 0 to 16777216");
  fails_with(edited([](attn::WeightsFile& f) { f.numbers.pop_back(); }),
             "the file has no number english_hash");
  test::check_vocabulary_refused(edited, fails_with);
  fails_with(edited([](attn::WeightsFile& f) { f.tensors.clear(); }), "the file holds no model");
  // A tensor of a third model, or one more of a known model, is read by nobody or refused.
  fails_with(edited([](attn::WeightsFile& f) { test::add_tensor(f, "transformer/x"); }),
             "holds a tensor transformer/x that no model of it reads");
  fails_with(edited([](attn::WeightsFile& f) { test::add_tensor(f, "attention/extra"); }),
             "more tensors under \"attention/\" than the model's");
  fails_with(edited([](attn::WeightsFile& f) { f.tensors.pop_back(); }),
             "tensors under \"attention/\"; the model has");
  const attn::TranslatorWeights w = attn::parse_translators(good.data(), good.size());
  CHECK(w.models[0].bridge == Bridge::fixed_vector);
  CHECK(w.models[1].bridge == Bridge::attention);
  CHECK_THROWS_WITH(attn::make_translator(w, Bridge::attention, attn::unit_normal(8, 5, 1)),
                    Catch::Contains("word vectors are 8x5"));
  // The two GRU directions' input weights swapped: the model says which is where.
  const std::vector<std::uint8_t> swapped_bytes =
      edited([](attn::WeightsFile& f) { std::swap(f.tensors[1].name, f.tensors[5].name); });
  const attn::TranslatorWeights swapped =
      attn::parse_translators(swapped_bytes.data(), swapped_bytes.size());
  CHECK_THROWS_WITH(
      attn::make_translator(swapped, Bridge::fixed_vector, test::weights_test_vectors()),
      Catch::Contains("the file's tensor 1 is encoder_backward.w_x where the model "
                      "has encoder_forward.w_x"));
  attn::TranslatorWeights one = w;
  one.models.pop_back();
  CHECK_THROWS_WITH(attn::make_translator(one, Bridge::attention, test::weights_test_vectors()),
                    Catch::Contains("the file has no attention model"));
}

TEST_CASE("translator weights: what cannot be written is refused", "[translator-weights]") {
  attn::Translator<float> a(small_config(Bridge::attention), test::weights_test_vectors());
  attn::Translator<float> b(small_config(Bridge::attention), test::weights_test_vectors());
  CHECK_THROWS_WITH(attn::encode_translators({&a, &b}, test::kGermanVocabulary, 0),
                    Catch::Contains("different bridges"));
  CHECK_THROWS_WITH(attn::encode_translators({&a}, "<pad>\n<s>\n", 0),
                    Catch::Contains("the vocabulary has 2 words but the models 7"));
  CHECK_THROWS_WITH(attn::encode_translators({}, test::kGermanVocabulary, 0),
                    Catch::Contains("one or two"));
  a.parameters()[3]->value(0, 0) = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH(attn::encode_translators({&a}, test::kGermanVocabulary, 0),
                    Catch::Contains("NaN"));
}

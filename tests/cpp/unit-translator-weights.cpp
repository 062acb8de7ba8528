#include <catch2/catch.hpp>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "attn/embeddings.hpp"
#include "attn/translator_weights.hpp"
#include "gradient_check.hpp"

using attn::Bridge;

namespace {

attn::TranslatorConfig small_config(Bridge bridge) {
  attn::TranslatorConfig c;
  c.bridge = bridge;
  c.source_words = 9;
  c.source_width = 5;
  c.target_words = 7;
  c.target_width = 4;
  c.encoder_state = 3;
  c.decoder_state = 6;
  c.attention = 2;
  c.seed = 2;
  return c;
}

const std::string kVocabulary = "<pad>\n<s>\n</s>\n<unk>\nhaus\ndas\nich\n";

attn::MatrixT<float> vectors() { return attn::unit_normal(9, 5, 3).cast<float>(); }

std::vector<std::uint8_t> both_models() {
  attn::Translator<float> fixed(small_config(Bridge::fixed_vector), vectors());
  attn::Translator<float> attending(small_config(Bridge::attention), vectors());
  return attn::encode_translators({&fixed, &attending}, kVocabulary, 0x5eed);
}

}  // namespace

TEST_CASE(
    "translator weights: both models and the vocabulary come back, each value within half "
    "a step of its row's scale",
    "[translator-weights]") {
  attn::Translator<float> fixed(small_config(Bridge::fixed_vector), vectors());
  attn::Translator<float> attending(small_config(Bridge::attention), vectors());
  const std::vector<std::uint8_t> bytes =
      attn::encode_translators({&fixed, &attending}, kVocabulary, 0x5eed);
  const attn::TranslatorWeights w = attn::parse_translators(bytes.data(), bytes.size());
  CHECK(w.english_hash == 0x5eed);
  CHECK(w.german_words ==
        std::vector<std::string>{"<pad>", "<s>", "</s>", "<unk>", "haus", "das", "ich"});
  REQUIRE(w.models.size() == 2);
  const attn::Translator<float> read = attn::make_translator(w, Bridge::attention, vectors());
  auto original = attending.parameters();
  auto back = const_cast<attn::Translator<float>&>(read).parameters();
  REQUIRE(original.size() == back.size());
  for (std::size_t i = 0; i < original.size(); ++i) {
    INFO(original[i]->name);
    for (Eigen::Index r = 0; r < original[i]->value.rows(); ++r) {
      const float step = original[i]->value.row(r).cwiseAbs().maxCoeff() / 127.0f;
      CHECK((original[i]->value.row(r) - back[i]->value.row(r)).cwiseAbs().maxCoeff() <=
            step * 0.5f * 1.0001f);
    }
  }
  // The file's models are the dequantised ones: encoding them again gives the same bytes.
  attn::Translator<float> fixed_back = attn::make_translator(w, Bridge::fixed_vector, vectors());
  attn::Translator<float> attention_back = attn::make_translator(w, Bridge::attention, vectors());
  CHECK(attn::encode_translators({&fixed_back, &attention_back}, kVocabulary, 0x5eed) == bytes);
}

TEST_CASE("translator weights: every broken field is named", "[translator-weights]") {
  const std::vector<std::uint8_t> good = both_models();
  auto fails_with = [](const std::vector<std::uint8_t>& b, const char* what) {
    CHECK_THROWS_WITH(attn::parse_translators(b.data(), b.size()), Catch::Contains(what));
  };
  auto with = [&](std::size_t at, std::uint8_t value) {
    std::vector<std::uint8_t> b = good;
    b[at] = value;
    return b;
  };
  fails_with({good.begin(), good.begin() + 30}, "truncated");
  fails_with(with(1, 'X'), "magic");
  fails_with(with(8, 7), "format version 7");
  fails_with(with(8 + 4 * 3, 3), "target_words must be between 5");
  fails_with(with(8 + 4 * 9, 3), "3 models");
  fails_with(with(8 + 4 * 10, 40), "last word has no newline");
  std::vector<std::uint8_t> longer = good;
  longer.push_back(0);
  fails_with(longer, "extra bytes");
  fails_with({good.begin(), good.end() - 1}, "truncated");
  // The first model's bridge, right after the vocabulary: 2 is no bridge, 1 is the second's.
  const std::size_t bridge = attn::kTranslatorHeaderBytes + kVocabulary.size();
  fails_with(with(bridge, 2), "unknown bridge");
  // The second model's bridge made the first's: its offset is the first model's bytes further.
  attn::Translator<float> fixed(small_config(Bridge::fixed_vector), vectors());
  const std::size_t fixed_bytes =
      attn::encode_translators({&fixed}, kVocabulary, 0).size() - bridge;
  REQUIRE(good[bridge + fixed_bytes] == 1);
  fails_with(with(bridge + fixed_bytes, 0), "same bridge");
  // The first row's scale made -1.5 (float bits 0xbfc00000).
  std::vector<std::uint8_t> negative = good;
  negative[bridge + 4 + 2] = 0xc0;
  negative[bridge + 4 + 3] = 0xbf;
  fails_with(negative, "negative or not finite");
  const attn::TranslatorWeights w = attn::parse_translators(good.data(), good.size());
  CHECK_THROWS_WITH(attn::make_translator(w, Bridge::attention, attn::unit_normal(8, 5, 1)),
                    Catch::Contains("word vectors are 8x5"));
}

TEST_CASE("translator weights: what cannot be written is refused", "[translator-weights]") {
  attn::Translator<float> a(small_config(Bridge::attention), vectors());
  attn::Translator<float> b(small_config(Bridge::attention), vectors());
  CHECK_THROWS_WITH(attn::encode_translators({&a, &b}, kVocabulary, 0),
                    Catch::Contains("different bridges"));
  CHECK_THROWS_WITH(attn::encode_translators({&a}, "<pad>\n<s>\n", 0),
                    Catch::Contains("the vocabulary has 2 words but the models 7"));
  CHECK_THROWS_WITH(attn::encode_translators({}, kVocabulary, 0), Catch::Contains("one or two"));
  a.parameters()[3]->value(0, 0) = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH(attn::encode_translators({&a}, kVocabulary, 0), Catch::Contains("NaN"));
}

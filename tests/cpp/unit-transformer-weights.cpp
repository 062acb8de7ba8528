#include <catch2/catch.hpp>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "attn/transformer_weights.hpp"
#include "attn/weights_file.hpp"
#include "gradient_check.hpp"
#include "translation_fixtures.hpp"

namespace {

attn::TransformerTranslatorConfig small_config() {
  // source_words, source_width, target_words, d_model, heads, encoder_layers, decoder_layers,
  // d_mlp, seed
  return {9, 5, 7, 8, 2, 2, 1, 6, 2};
}

std::shared_ptr<const attn::MatrixT<float>> shared_vectors() {
  return std::make_shared<const attn::MatrixT<float>>(test::weights_test_vectors());
}

std::vector<std::uint8_t> a_file() {
  attn::TransformerTranslator<float> model(small_config(), test::weights_test_vectors());
  return attn::encode_transformer_translator(model, test::kGermanVocabulary, 0x5eed);
}

}  // namespace

TEST_CASE(
    "transformer weights: the model and the vocabulary come back, each value within half a step "
    "of its row's scale",
    "[transformer-weights]") {
  attn::TransformerTranslator<float> model(small_config(), test::weights_test_vectors());
  const std::vector<std::uint8_t> bytes =
      attn::encode_transformer_translator(model, test::kGermanVocabulary, 0x5eed);
  const attn::TransformerTranslatorWeights w =
      attn::parse_transformer_translator(bytes.data(), bytes.size());
  CHECK(w.english_hash == 0x5eed);
  CHECK(w.config.d_model == 8);
  CHECK(w.config.encoder_layers == 2);
  CHECK(w.german_words ==
        std::vector<std::string>{"<pad>", "<s>", "</s>", "<unk>", "haus", "das", "ich"});
  attn::TransformerTranslator<float> read = attn::make_transformer_translator(w, shared_vectors());
  test::check_within_half_step(model.parameters(), read.parameters());
  // The file's model is the dequantised one: encoding it again gives the same bytes.
  CHECK(attn::encode_transformer_translator(read, test::kGermanVocabulary, 0x5eed) == bytes);
}

TEST_CASE("transformer weights: every broken field is named", "[transformer-weights]") {
  const std::vector<std::uint8_t> good = a_file();
  auto fails_with = [](const std::vector<std::uint8_t>& b, const char* what) {
    CHECK_THROWS_WITH(attn::parse_transformer_translator(b.data(), b.size()),
                      Catch::Contains("transformer translator") && Catch::Contains(what));
  };
  const auto edited = test::weights_file_editor(good, attn::kTransformerTranslatorKind);
  auto drop_number = [](attn::WeightsFile& f, const char* name) {
    for (auto it = f.numbers.begin(); it != f.numbers.end(); ++it) {
      if (it->first == name) {
        f.numbers.erase(it);
        return;
      }
    }
  };
  test::check_damaged_bytes_refused(good, fails_with);
  fails_with(edited([](attn::WeightsFile& f) { f.kind = "translators"; }),
             "the file holds translators, not transformer-translator");
  // Each size: missing, then out of its range or refused by the config's check.
  for (const char* size : {"source_words", "source_width", "target_words", "d_model", "heads",
                           "encoder_layers", "decoder_layers", "d_mlp"}) {
    INFO(size);
    fails_with(edited([&](attn::WeightsFile& f) { drop_number(f, size); }),
               (std::string("the file has no number ") + size).c_str());
    fails_with(edited([&](attn::WeightsFile& f) { test::set_number(f, size, 0); }), size);
  }
  fails_with(edited([&](attn::WeightsFile& f) { test::set_number(f, "heads", 3); }),
             "heads (3) must divide d_model (8)");
  fails_with(edited([&](attn::WeightsFile& f) { test::set_number(f, "d_model", 1u << 25); }),
             "d_model is 33554432; it must be from 0 to 16777216");
  fails_with(edited([&](attn::WeightsFile& f) { test::set_number(f, "d_model", 16); }),
             "the tensor transformer/source_w is 5x8 but must be 5x16");
  fails_with(edited([&](attn::WeightsFile& f) { test::set_number(f, "encoder_layers", 1); }),
             "the tensor transformer/encoder1.attention.W_q is 8x8 but must be 7x8");
  fails_with(edited([&](attn::WeightsFile& f) { test::set_number(f, "decoder_layers", 2); }),
             "the tensor transformer/logit_b is 1x7 but must be 8x8");
  fails_with(edited([&](attn::WeightsFile& f) { drop_number(f, "english_hash"); }),
             "the file has no number english_hash");
  fails_with(edited([](attn::WeightsFile& f) { f.texts.clear(); }),
             "the file has no text german_vocabulary");
  test::check_vocabulary_refused(edited, fails_with);
  // A word twice: the vocabulary's own check names it.
  const auto twice = edited([](attn::WeightsFile& f) { f.texts[0].second.replace(21, 4, "das"); });
  CHECK_THROWS_WITH(attn::parse_transformer_translator(twice.data(), twice.size()),
                    Catch::Contains("the word \"das\" appears twice"));
  fails_with(edited([](attn::WeightsFile& f) { f.tensors.clear(); }),
             "tensors under \"transformer/\"; the model has");
  fails_with(edited([](attn::WeightsFile& f) { test::add_tensor(f, "attention/x"); }),
             "holds a tensor attention/x that no model of it reads");
  fails_with(edited([](attn::WeightsFile& f) { f.tensors.pop_back(); }),
             "tensors under \"transformer/\"; the model has");
  fails_with(
      edited([](attn::WeightsFile& f) { f.tensors[1].value = attn::MatrixT<float>::Ones(4, 8); }),
      "the tensor transformer/source_w is 4x8 but must be 5x8");
  // Two blocks' tensors of one shape swapped: the model says which is where.
  const attn::TransformerTranslatorWeights w =
      attn::parse_transformer_translator(good.data(), good.size());
  CHECK_THROWS_WITH(
      attn::make_transformer_translator(w, std::make_shared<const attn::MatrixT<float>>(
                                               attn::unit_normal(8, 5, 1).cast<float>())),
      Catch::Contains("word vectors are 8x5"));
  const std::vector<std::uint8_t> swapped_bytes =
      edited([](attn::WeightsFile& f) { std::swap(f.tensors[3].name, f.tensors[5].name); });
  const attn::TransformerTranslatorWeights swapped =
      attn::parse_transformer_translator(swapped_bytes.data(), swapped_bytes.size());
  CHECK_THROWS_WITH(attn::make_transformer_translator(swapped, shared_vectors()),
                    Catch::Contains("the file's tensor 3 is encoder0.attention.W_k where the "
                                    "model has encoder0.norm1.gain") ||
                        Catch::Contains("tensor 3"));
}

TEST_CASE("transformer weights: what cannot be written is refused", "[transformer-weights]") {
  attn::TransformerTranslator<float> model(small_config(), test::weights_test_vectors());
  CHECK_THROWS_WITH(attn::encode_transformer_translator(model, "<pad>\n<s>\n", 0),
                    Catch::Contains("the vocabulary has 2 words but the model 7"));
  CHECK_THROWS_WITH(
      attn::encode_transformer_translator(model, "<pad>\n<s>\n</s>\n<unk>\nhaus\nhaus\nich\n", 0),
      Catch::Contains("haus"));
  model.parameters()[3]->value(0, 0) = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH(attn::encode_transformer_translator(model, test::kGermanVocabulary, 0),
                    Catch::Contains("NaN"));
}

TEST_CASE(
    "transformer weights: a post-layer-norm model comes back post-layer-norm; a file without the "
    "number is pre-layer-norm",
    "[transformer-weights]") {
  attn::TransformerTranslatorConfig config = small_config();
  config.norm_place = attn::NormPlace::post;
  attn::TransformerTranslator<float> model(config, test::weights_test_vectors());
  const std::vector<std::uint8_t> bytes =
      attn::encode_transformer_translator(model, test::kGermanVocabulary, 0x5eed);
  const attn::TransformerTranslatorWeights w =
      attn::parse_transformer_translator(bytes.data(), bytes.size());
  CHECK(w.config.norm_place == attn::NormPlace::post);
  attn::TransformerTranslator<float> read = attn::make_transformer_translator(w, shared_vectors());
  CHECK(read.config().norm_place == attn::NormPlace::post);
  test::check_within_half_step(model.parameters(), read.parameters());
  CHECK(attn::encode_transformer_translator(read, test::kGermanVocabulary, 0x5eed) == bytes);
  // The file's model computes what the model written computes, within its rounding.
  attn::TranslationBatch batch;
  batch.sources = {{0, 4, 9, 2}, {5, 1}};
  batch.targets = {{4, 6, 3}, {5}};
  CHECK(read.forward(batch).loss == Approx(model.forward(batch).loss).epsilon(1e-2));

  // A pre-layer-norm model's file has no such number, as every file before the option: it reads
  // back as pre-layer-norm.
  const std::vector<std::uint8_t> pre = a_file();
  const attn::WeightsFile pre_file =
      attn::parse_weights_file(pre.data(), pre.size(), attn::kTransformerTranslatorKind, "test");
  for (const auto& number : pre_file.numbers) CHECK(number.first != "post_layer_norm");
  CHECK(attn::parse_transformer_translator(pre.data(), pre.size()).config.norm_place ==
        attn::NormPlace::pre);

  // Refused: a place other than 0 or 1, and a place that does not fit the tensors.
  auto fails_with = [](const std::vector<std::uint8_t>& b, const char* what) {
    CHECK_THROWS_WITH(attn::parse_transformer_translator(b.data(), b.size()),
                      Catch::Contains("transformer translator") && Catch::Contains(what));
  };
  const auto edited_post = test::weights_file_editor(bytes, attn::kTransformerTranslatorKind);
  fails_with(edited_post([](attn::WeightsFile& f) { test::set_number(f, "post_layer_norm", 2); }),
             "post_layer_norm is 2; it must be from 0 to 1");
  fails_with(edited_post([](attn::WeightsFile& f) { test::set_number(f, "post_layer_norm", 0); }),
             "the tensor transformer/target_embedding is 7x8 but must be 1x8");
  const auto edited_pre = test::weights_file_editor(pre, attn::kTransformerTranslatorKind);
  fails_with(edited_pre([](attn::WeightsFile& f) { f.numbers.emplace_back("post_layer_norm", 1); }),
             "the tensor transformer/encoder_norm.gain is 1x8 but must be 7x8");
}

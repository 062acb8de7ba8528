#include "attn/transformer_weights.hpp"

#include <algorithm>
#include <utility>

#include "attn/embeddings.hpp"
#include "attn/translator_weights.hpp"
#include "attn/weights_file.hpp"
#include "checks.hpp"

namespace attn {
namespace {

constexpr const char* kWhere = "transformer translator weights";

// Every tensor is named "transformer/<parameter>".
constexpr const char* kPrefix = "transformer/";

// The sizes the file names, in the order it holds them.
constexpr ConfigSize<TransformerTranslatorConfig> kSizes[] = {
    {"source_words", &TransformerTranslatorConfig::source_words},
    {"source_width", &TransformerTranslatorConfig::source_width},
    {"target_words", &TransformerTranslatorConfig::target_words},
    {"d_model", &TransformerTranslatorConfig::d_model},
    {"heads", &TransformerTranslatorConfig::heads},
    {"encoder_layers", &TransformerTranslatorConfig::encoder_layers},
    {"decoder_layers", &TransformerTranslatorConfig::decoder_layers},
    {"d_mlp", &TransformerTranslatorConfig::d_mlp},
};

// The number a post-layer-norm model's file holds, 1; a pre-layer-norm model's file has none (or
// 0), as every file written before the place was an option.
constexpr const char* kPostLayerNorm = "post_layer_norm";

}  // namespace

std::vector<std::uint8_t> encode_transformer_translator(TransformerTranslator<float>& model,
                                                        const std::string& vocabulary,
                                                        std::uint32_t english_hash) {
  const TransformerTranslatorConfig& c = model.config();
  WeightsFile file;
  file.kind = kTransformerTranslatorKind;
  add_sizes(file, c, kSizes);
  if (c.norm_place == NormPlace::post) file.numbers.emplace_back(kPostLayerNorm, 1);
  add_translation_vocabularies(file, vocabulary, english_hash, c.target_words, "the model", kWhere);
  add_parameters(file, kPrefix, model.parameters(), TensorEncoding::int8_rows);
  return encode_weights_file(file, kWhere);
}

TransformerTranslatorWeights parse_transformer_translator(const std::uint8_t* bytes,
                                                          std::size_t size) {
  WeightsFile file = parse_weights_file(bytes, size, kTransformerTranslatorKind, kWhere);
  TransformerTranslatorWeights w;
  read_sizes(file, kWhere, kSizes, w.config);
  const bool has_place =
      std::any_of(file.numbers.begin(), file.numbers.end(),
                  [](const auto& number) { return number.first == kPostLayerNorm; });
  w.config.norm_place = has_place && file.number(kWhere, kPostLayerNorm, 0, 1) == 1
                            ? NormPlace::post
                            : NormPlace::pre;
  check_transformer_translator_config(w.config);
  read_translation_vocabularies(file, w.config.target_words, kWhere, w.english_hash,
                                w.german_words);
  w.values = take_parameters(file, kPrefix, transformer_translator_parameter_shapes(w.config),
                             kWhere, &w.names);
  require_all_taken(file, kWhere);
  return w;
}

TransformerTranslator<float> make_transformer_translator(
    const TransformerTranslatorWeights& weights,
    std::shared_ptr<const MatrixT<float>> word_vectors) {
  TransformerTranslator<float> model = TransformerTranslator<float>::from_weights(
      weights.config, std::move(word_vectors), weights.values);
  require_parameter_names(model.parameters(), weights.names, kWhere);
  return model;
}

}  // namespace attn

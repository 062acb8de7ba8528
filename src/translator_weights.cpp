#include "attn/translator_weights.hpp"

#include <algorithm>
#include <utility>

#include "attn/embeddings.hpp"
#include "attn/weights_file.hpp"
#include "checks.hpp"

namespace attn {
namespace {

constexpr const char* kWhere = "translator weights";

// The sizes the file names, in the order it holds them.
constexpr ConfigSize<TranslatorConfig> kSizes[] = {
    {"source_words", &TranslatorConfig::source_words},
    {"source_width", &TranslatorConfig::source_width},
    {"target_words", &TranslatorConfig::target_words},
    {"target_width", &TranslatorConfig::target_width},
    {"encoder_state", &TranslatorConfig::encoder_state},
    {"decoder_state", &TranslatorConfig::decoder_state},
    {"attention", &TranslatorConfig::attention},
};

// A model's tensors are named "<bridge>/<parameter>".
std::string prefix_of(Bridge bridge) { return std::string(bridge_name(bridge)) + "/"; }

}  // namespace

std::vector<std::string> german_vocabulary_words(std::string_view text, const char* where) {
  std::vector<std::string> words;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      words.emplace_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  if (start != text.size()) detail::fail(where, "the vocabulary's last word has no newline");
  return words;
}

void add_translation_vocabularies(WeightsFile& file, const std::string& vocabulary,
                                  std::uint32_t english_hash, int target_words, const char* models,
                                  const char* where) {
  const std::vector<std::string> words = german_vocabulary_words(vocabulary, where);
  if (static_cast<int>(words.size()) != target_words) {
    detail::fail(where, "the vocabulary has " + std::to_string(words.size()) + " words but " +
                            models + " " + std::to_string(target_words));
  }
  Vocabulary check(words);  // distinct, non-empty words
  file.numbers.emplace_back("english_hash", english_hash);
  file.texts.emplace_back("german_vocabulary", vocabulary);
}

void read_translation_vocabularies(const WeightsFile& file, int target_words, const char* where,
                                   std::uint32_t& english_hash,
                                   std::vector<std::string>& german_words) {
  english_hash = file.number(where, "english_hash");
  german_words = german_vocabulary_words(file.text(where, "german_vocabulary"), where);
  if (static_cast<int>(german_words.size()) != target_words) {
    detail::fail(where, "the vocabulary has " + std::to_string(german_words.size()) +
                            " words but target_words is " + std::to_string(target_words));
  }
  Vocabulary check(german_words);  // distinct, non-empty words
}

std::vector<std::uint8_t> encode_translators(const std::vector<Translator<float>*>& models,
                                             const std::string& vocabulary,
                                             std::uint32_t english_hash) {
  if (models.empty() || models.size() > 2) {
    detail::fail(kWhere, "a file holds one or two models, got " + std::to_string(models.size()));
  }
  const TranslatorConfig& c = models[0]->config();
  for (Translator<float>* m : models) {
    if (!same_sizes(m->config(), c, kSizes)) {
      detail::fail(kWhere, "the models of one file must have the same shape");
    }
  }
  if (models.size() == 2 && models[0]->config().bridge == models[1]->config().bridge) {
    detail::fail(kWhere, "the two models of a file must have different bridges");
  }
  WeightsFile file;
  file.kind = kTranslatorsKind;
  add_sizes(file, c, kSizes);
  add_translation_vocabularies(file, vocabulary, english_hash, c.target_words, "the models",
                               kWhere);
  for (Translator<float>* m : models) {
    add_parameters(file, prefix_of(m->config().bridge), m->parameters(), TensorEncoding::int8_rows);
  }
  return encode_weights_file(file, kWhere);
}

TranslatorWeights parse_translators(const std::uint8_t* bytes, std::size_t size) {
  WeightsFile file = parse_weights_file(bytes, size, kTranslatorsKind, kWhere);
  TranslatorWeights w;
  read_sizes(file, kWhere, kSizes, w.config);
  check_translator_config(w.config);
  read_translation_vocabularies(file, w.config.target_words, kWhere, w.english_hash,
                                w.german_words);

  // Each bridge's model, in the order the file holds them.
  std::vector<Bridge> bridges;
  for (const WeightsTensor& t : file.tensors) {
    for (const Bridge bridge : {Bridge::fixed_vector, Bridge::attention}) {
      const bool listed = std::find(bridges.begin(), bridges.end(), bridge) != bridges.end();
      if (!listed && t.name.rfind(prefix_of(bridge), 0) == 0) bridges.push_back(bridge);
    }
  }
  if (bridges.empty()) detail::fail(kWhere, "the file holds no model");
  for (const Bridge bridge : bridges) {
    TranslatorConfig with_bridge = w.config;
    with_bridge.bridge = bridge;
    TranslatorWeights::Model model;
    model.bridge = bridge;
    model.values = take_parameters(file, prefix_of(bridge),
                                   translator_parameter_shapes(with_bridge), kWhere, &model.names);
    w.models.push_back(std::move(model));
  }
  require_all_taken(file, kWhere);
  return w;
}

Translator<float> make_translator(const TranslatorWeights& weights, Bridge bridge,
                                  std::shared_ptr<const MatrixT<float>> word_vectors) {
  for (const TranslatorWeights::Model& m : weights.models) {
    if (m.bridge != bridge) continue;
    TranslatorConfig config = weights.config;
    config.bridge = bridge;
    Translator<float> model =
        Translator<float>::from_weights(config, std::move(word_vectors), m.values);
    require_parameter_names(model.parameters(), m.names, kWhere);
    return model;
  }
  detail::fail(kWhere, std::string("the file has no ") + bridge_name(bridge) + " model");
}

Translator<float> make_translator(const TranslatorWeights& weights, Bridge bridge,
                                  MatrixT<float> word_vectors) {
  return make_translator(weights, bridge,
                         std::make_shared<const MatrixT<float>>(std::move(word_vectors)));
}

}  // namespace attn

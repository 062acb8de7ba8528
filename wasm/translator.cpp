// The embind surface of the page's two translation models (docs/translation.md): load the file
// that holds both and the German vocabulary once, then translate the learner's English tokens with
// either. web/src/engine/translator.js wraps these into loadTranslator(); here arguments are
// checked and converted, and results copied out.
#include "attn/translator.hpp"

#include <emscripten/bind.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "attn/translation_text.hpp"
#include "attn/translator_weights.hpp"
#include "convert.hpp"
#include "translation_result.hpp"

namespace attn::bindings {
namespace {

// The models of the last successful translatorLoad, with the word vectors they were loaded
// against (a later loadEmbeddings of other vectors does not change what their ids mean) and the
// German vocabulary. Both models only translate: FrozenTranslator keeps each one's D^T.
struct LoadedTranslators {
  std::shared_ptr<const Embeddings> embeddings;
  GermanVocabulary german;
  std::optional<FrozenTranslator<float>> attention;
  std::optional<FrozenTranslator<float>> fixed_vector;
};

std::optional<LoadedTranslators>& loaded_translators() {
  static std::optional<LoadedTranslators> translators;
  return translators;
}

long long parameter_count(const TranslatorConfig& config, Bridge bridge) {
  TranslatorConfig with_bridge = config;
  with_bridge.bridge = bridge;
  long long count = 0;
  for (const auto& [rows, cols] : translator_parameter_shapes(with_bridge)) {
    count += static_cast<long long>(rows) * cols;
  }
  return count;
}

// bytes: the file (a Uint8Array) -> { sourceWords, sourceWidth, targetWords, targetPieces (the
// German vocabulary is subword pieces, not whole words), targetWidth,
// encoderState, decoderState, attentionWidth, models: the bridges it holds ('attention',
// 'fixed-vector'), parameters: { [bridge]: count } }. Needs the word vectors loaded first
// (loadEmbeddings), and the file must name their vocabulary. A file that does not load leaves the
// models loaded before in place.
val load(const val& bytes) {
  return guarded([&] {
    const char* where = "loadTranslator";
    const std::shared_ptr<const Embeddings> embeddings = embeddings_for_load(where);
    const ByteCopy copy = bytes_from(bytes, where, "the translation file");
    TranslatorWeights weights = parse_translators(copy.data(), copy.size());
    const TranslatorConfig& c = weights.config;
    require_trained_on(*embeddings, weights.english_hash, c.source_words, c.source_width, where,
                       "the models were");

    // Both models are made before anything loaded earlier is replaced. They share one copy of
    // the word vectors, and hold no gradients (make_translator allocates none).
    LoadedTranslators next{embeddings, GermanVocabulary(std::move(weights.german_words)),
                           std::nullopt, std::nullopt};
    const auto vectors = std::make_shared<const Matrix>(embeddings->vocabulary_vectors());
    for (std::size_t i = 0; i < weights.models.size(); ++i) {
      const Bridge bridge = weights.models[i].bridge;
      (bridge == Bridge::attention ? next.attention : next.fixed_vector)
          .emplace(make_translator(weights, bridge, vectors));
      // The dequantised values are in the model now.
      weights.models[i].values.clear();
      weights.models[i].values.shrink_to_fit();
    }
    loaded_translators().emplace(std::move(next));

    val models = val::array();
    val parameters = val::object();
    for (const Bridge bridge : {Bridge::attention, Bridge::fixed_vector}) {
      const bool present = bridge == Bridge::attention
                               ? loaded_translators()->attention.has_value()
                               : loaded_translators()->fixed_vector.has_value();
      if (!present) continue;
      models.call<void>("push", val(bridge_name(bridge)));
      parameters.set(bridge_name(bridge), static_cast<double>(parameter_count(c, bridge)));
    }
    val out = val::object();
    out.set("sourceWords", c.source_words);
    out.set("sourceWidth", c.source_width);
    out.set("targetWords", c.target_words);
    out.set("targetPieces", loaded_translators()->german.pieces());
    out.set("targetWidth", c.target_width);
    out.set("encoderState", c.encoder_state);
    out.set("decoderState", c.decoder_state);
    out.set("attentionWidth", c.attention);
    out.set("models", models);
    out.set("parameters", parameters);
    return out;
  });
}

// model: 'attention' or 'fixed-vector'; tokens: n English strings, 1 <= n <= kMaxTranslationLength;
// max_words: 0 to kMaxTranslationLength - 1; beam: the beam's width, 1 (greedy) to 16 ->
// { ids: Int32Array(n) (rows of the word vectors, their count for an unknown word),
//   known: Uint8Array(n),
//   pieces: m German strings, one per id the model wrote (without </s>; the unknown id as
//   "<unk>"; whole words for a word vocabulary),
//   weights: Float32Array((m + 1) * n) for the attention model, row t output step t's weights over
//   the n English words and the last row the </s> step's; empty for the fixed-vector model,
//   scores: Float32Array((m + 1) * n), the same rows' additive scores e_tj before the softmax;
//   empty for the fixed-vector model,
//   words: W German words as one reads them, the English token copied in for <unk>
//   (readable_translation), firstPiece: Int32Array(W + 1) (word w is pieces firstPiece[w] ..
//   firstPiece[w + 1] - 1), copied: Int32Array(W) (the English token a word copies, or -1),
//   wordWeights: Float32Array((W + 1) * n), each word's row the mean of its pieces' rows, the last
//   the </s> step's; empty for the fixed-vector model,
//   logProbability: of the ids and </s>, natural log }
val translate(const val& model_name, const val& tokens, int max_words, int beam) {
  return guarded([&] {
    const char* where = "translator";
    const std::optional<LoadedTranslators>& loaded = loaded_translators();
    if (!loaded) {
      throw InvalidArgument(std::string(where) +
                            ": no translation models are loaded; load their file first");
    }
    const std::string name = model_name.isString() ? model_name.as<std::string>() : std::string();
    const bool attend = name == bridge_name(Bridge::attention);
    if (!attend && name != bridge_name(Bridge::fixed_vector)) {
      throw InvalidArgument(std::string(where) + ": model must be 'attention' or 'fixed-vector'");
    }
    const std::optional<FrozenTranslator<float>>& translator =
        attend ? loaded->attention : loaded->fixed_vector;
    if (!translator) {
      throw InvalidArgument(std::string(where) + ": the loaded file has no " + name + " model");
    }
    const TranslationInput input = translation_input(tokens, max_words, *loaded->embeddings, where);
    const Translation translation = translator->translate(input.ids, max_words, beam);
    return translation_result(translation,
                              readable_translation(translation, loaded->german, input.tokens),
                              loaded->german, input, *loaded->embeddings);
  });
}

}  // namespace
}  // namespace attn::bindings

EMSCRIPTEN_BINDINGS(attention_translator) {
  using namespace attn::bindings;
  emscripten::function("translatorLoad", &load);
  emscripten::function("translatorTranslate", &translate);
}

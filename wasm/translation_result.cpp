#include "translation_result.hpp"

#include <emscripten/bind.h>

#include <cstdint>

#include "attn/lm_weights.hpp"
#include "convert.hpp"
#include "loaded_embeddings.hpp"

namespace attn::bindings {

std::shared_ptr<const Embeddings> embeddings_for_load(const char* where) {
  const std::shared_ptr<const Embeddings>& embeddings = loaded_embeddings();
  if (!embeddings) {
    throw InvalidArgument(std::string(where) +
                          ": no word vectors are loaded; call loadEmbeddings(bytes) first");
  }
  return embeddings;
}

void require_trained_on(const Embeddings& embeddings, std::uint32_t english_hash, int source_words,
                        int source_width, const char* where, const char* models) {
  if (english_hash != vocabulary_hash(embeddings) || source_words != embeddings.size() ||
      source_width != embeddings.dim()) {
    throw InvalidArgument(std::string(where) + ": " + models +
                          " trained on other word vectors than the loaded ones (their vocabulary "
                          "or width differs)");
  }
}

TranslationInput translation_input(const val& tokens, int max_words, const Embeddings& embeddings,
                                   const char* where) {
  TranslationInput input;
  input.tokens = strings_from(tokens, where);
  if (input.tokens.empty() || input.tokens.size() > static_cast<size_t>(kMaxTranslationLength)) {
    throw InvalidArgument(std::string(where) + ": it reads 1 to " +
                          std::to_string(kMaxTranslationLength) + " tokens, got " +
                          std::to_string(input.tokens.size()));
  }
  if (max_words < 0 || max_words >= kMaxTranslationLength) {
    throw InvalidArgument(std::string(where) + ": maxWords must be 0 to " +
                          std::to_string(kMaxTranslationLength - 1) + ", got " +
                          std::to_string(max_words));
  }
  input.ids = language_model_ids(embeddings, input.tokens);
  return input;
}

val translation_result(const Translation& translation, const ReadableTranslation& readable,
                       const GermanVocabulary& german, const TranslationInput& input,
                       const Embeddings& embeddings) {
  const std::vector<int>& ids = input.ids;
  const size_t n = ids.size();
  std::vector<std::uint8_t> known(n);
  for (size_t i = 0; i < n; ++i) known[i] = ids[i] < embeddings.size() ? 1 : 0;
  val pieces = val::array();
  for (const int id : translation.words) pieces.call<void>("push", val(german.entry(id)));
  val words = val::array();
  for (const std::string& word : readable.words) words.call<void>("push", val(word));

  const auto ints = [](const std::vector<int>& values) {
    return val::global("Int32Array")
        .new_(emscripten::typed_memory_view(values.size(), values.data()));
  };
  val out = val::object();
  out.set("ids", ints(ids));
  out.set("known", val::global("Uint8Array").new_(emscripten::typed_memory_view(n, known.data())));
  out.set("pieces", pieces);
  out.set("weights", float32_array(translation.weights));
  out.set("scores", float32_array(translation.scores));
  out.set("words", words);
  out.set("firstPiece", ints(readable.first_piece));
  out.set("copied", ints(readable.copied));
  out.set("wordWeights", float32_array(readable.weights));
  out.set("logProbability", translation.log_probability);
  return out;
}

}  // namespace attn::bindings

// The embind surface of the page's language model (docs/language-model.md): load the trained
// weights once, then run it on the learner's tokens. web/src/engine/language-model.js wraps these
// into loadLanguageModel(); here arguments are checked and converted, and results copied out.
#include "attn/language_model.hpp"

#include <emscripten/bind.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "attn/lm_analysis.hpp"
#include "attn/lm_weights.hpp"
#include "convert.hpp"
#include "loaded_embeddings.hpp"

namespace attn::bindings {
namespace {

// The model of the last successful languageModelLoad, with the word vectors it was loaded
// against (a later loadEmbeddings of other vectors does not change what its ids mean), and its
// last reading: the learner types at the end of the text, and the next run computes only the
// positions from the first changed token on (LanguageModel::read).
struct LoadedModel {
  std::shared_ptr<const Embeddings> embeddings;
  LanguageModel<float> model;
  LanguageModelReading<float> last;
};

std::optional<LoadedModel>& loaded_model() {
  static std::optional<LoadedModel> model;
  return model;
}

// bytes: the weights file (a Uint8Array) -> { vocab, dEmbed, dModel, layers, heads, dMlp,
// context, parameters }. Needs the word vectors loaded first (loadEmbeddings), and the file must
// name their vocabulary. A file that does not parse leaves the model loaded before in place.
val load(const val& bytes) {
  return guarded([&] {
    const char* where = "loadLanguageModel";
    const std::shared_ptr<const Embeddings>& embeddings = loaded_embeddings();
    if (!embeddings) {
      throw InvalidArgument(std::string(where) +
                            ": no word vectors are loaded; call loadEmbeddings(bytes) first");
    }
    const ByteCopy copy = bytes_from(bytes, where, "the file");
    LanguageModelWeights weights = parse_language_model_weights(copy.data(), copy.size());
    if (weights.vocab_hash != vocabulary_hash(*embeddings) ||
        weights.config.vocab != embeddings->size() + 1 ||
        weights.config.d_embed != embeddings->dim()) {
      throw InvalidArgument(std::string(where) +
                            ": the weights were trained on other word vectors than the loaded "
                            "ones (their vocabulary or width differs)");
    }
    const LanguageModelConfig c = weights.config;
    // Straight from the weights: no seeded weights are drawn only to be overwritten.
    LanguageModel<float> model =
        make_language_model(std::move(weights), language_model_word_vectors(*embeddings));
    loaded_model().emplace(LoadedModel{embeddings, std::move(model), {}});

    val out = val::object();
    out.set("vocab", c.vocab);
    out.set("dEmbed", c.d_embed);
    out.set("dModel", c.d_model);
    out.set("layers", c.layers);
    out.set("heads", c.heads);
    out.set("dMlp", c.d_mlp);
    out.set("context", c.context);
    out.set("parameters", static_cast<double>(language_model_parameter_count(c)));
    return out;
  });
}

// tokens: n strings, 1 <= n <= context; top: how many next words ->
// { ids: Int32Array(n), known: Uint8Array(n), weights: Float32Array(layers * heads * n * n),
//   next: { ids: Int32Array(top), words: (top) strings, null for the unknown-word id,
//           probabilities: Float32Array(top) } }
// weights holds layer l's head j at offset ((l * heads) + j) * n * n, each (n, n) row-major.
val run(const val& tokens, int top) {
  return guarded([&] {
    const char* where = "language model";
    std::optional<LoadedModel>& loaded = loaded_model();
    if (!loaded) {
      throw InvalidArgument(std::string(where) + ": no model is loaded; load its weights first");
    }
    const std::vector<std::string> words = strings_from(tokens, where);
    const LanguageModelConfig& c = loaded->model.config();
    if (words.empty() || static_cast<int>(words.size()) > c.context) {
      throw InvalidArgument(std::string(where) + ": it reads 1 to " + std::to_string(c.context) +
                            " tokens, got " + std::to_string(words.size()));
    }
    const std::vector<int> ids = language_model_ids(*loaded->embeddings, words);
    // Moved in, so that its memory is free for the new reading (lost if reading throws: the
    // next run then reads its text whole).
    loaded->last = loaded->model.read(ids, std::move(loaded->last));
    const LanguageModelReading<float>& reading = loaded->last;

    const size_t n = ids.size();
    const std::vector<float>& weights = reading.weights;
    std::vector<std::uint8_t> known(n);
    for (size_t i = 0; i < n; ++i) known[i] = ids[i] < loaded->embeddings->size() ? 1 : 0;

    const std::vector<NextWord> next = top_next_words(reading.logits, 0, top);
    std::vector<int> next_ids;
    std::vector<double> probabilities;
    val next_words = val::array();
    for (const NextWord& w : next) {
      next_ids.push_back(w.id);
      probabilities.push_back(w.probability);
      next_words.call<void>("push", w.id < loaded->embeddings->size()
                                        ? val(loaded->embeddings->vocabulary().word(w.id))
                                        : val::null());
    }

    const auto int32_array = [](const std::vector<int>& v) {
      return val::global("Int32Array").new_(emscripten::typed_memory_view(v.size(), v.data()));
    };
    val next_out = val::object();
    next_out.set("ids", int32_array(next_ids));
    next_out.set("words", next_words);
    next_out.set("probabilities", float32_array(probabilities));
    val out = val::object();
    out.set("ids", int32_array(ids));
    out.set(
        "known",
        val::global("Uint8Array").new_(emscripten::typed_memory_view(known.size(), known.data())));
    out.set("weights", float32_array(weights.data(), weights.size()));
    out.set("next", next_out);
    return out;
  });
}

}  // namespace
}  // namespace attn::bindings

EMSCRIPTEN_BINDINGS(attention_language_model) {
  using namespace attn::bindings;
  emscripten::function("languageModelLoad", &load);
  emscripten::function("languageModelRun", &run);
}

// The embind surface of lesson 2's Transformer translator (docs/transformer.md): load its file
// once, then translate the learner's English tokens, with every decoder layer's and head's
// cross-attention. web/src/engine/translator.js wraps these into loadTranslator({ model:
// 'transformer' }); here arguments are checked and converted, and results copied out.
#include "attn/transformer_translator.hpp"

#include <emscripten/bind.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "attn/transformer_weights.hpp"
#include "attn/translation_text.hpp"
#include "convert.hpp"
#include "translation_result.hpp"

namespace attn::bindings {
namespace {

// The model of the last successful transformerLoad, with the word vectors it was loaded against
// and its German vocabulary.
struct LoadedTransformer {
  std::shared_ptr<const Embeddings> embeddings;
  GermanVocabulary german;
  TransformerTranslator<float> model;
};

std::optional<LoadedTransformer>& loaded_transformer() {
  static std::optional<LoadedTransformer> transformer;
  return transformer;
}

// bytes: the file (a Uint8Array) -> { sourceWords, sourceWidth, targetWords, targetPieces,
// dModel, heads, encoderLayers, decoderLayers, dMlp, parameters }. Needs the word vectors loaded
// first (loadEmbeddings), and the file must name their vocabulary. A file that does not load
// leaves the model loaded before in place.
val load(const val& bytes) {
  return guarded([&] {
    const char* where = "loadTranslator";
    const std::shared_ptr<const Embeddings> embeddings = embeddings_for_load(where);
    const ByteCopy copy = bytes_from(bytes, where, "the Transformer's file");
    TransformerTranslatorWeights weights = parse_transformer_translator(copy.data(), copy.size());
    const TransformerTranslatorConfig& c = weights.config;
    require_trained_on(*embeddings, weights.english_hash, c.source_words, c.source_width, where,
                       "the Transformer was");
    const auto vectors = std::make_shared<const Matrix>(embeddings->vocabulary_vectors());
    TransformerTranslator<float> model = make_transformer_translator(weights, vectors);
    long long parameters = 0;
    for (const auto& [rows, cols] : transformer_translator_parameter_shapes(c)) {
      parameters += static_cast<long long>(rows) * cols;
    }
    loaded_transformer().emplace(LoadedTransformer{
        embeddings, GermanVocabulary(std::move(weights.german_words)), std::move(model)});

    val out = val::object();
    out.set("sourceWords", c.source_words);
    out.set("sourceWidth", c.source_width);
    out.set("targetWords", c.target_words);
    out.set("targetPieces", loaded_transformer()->german.pieces());
    out.set("dModel", c.d_model);
    out.set("heads", c.heads);
    out.set("encoderLayers", c.encoder_layers);
    out.set("decoderLayers", c.decoder_layers);
    out.set("dMlp", c.d_mlp);
    out.set("parameters", static_cast<double>(parameters));
    return out;
  });
}

// tokens: n English strings, 1 <= n <= kMaxTranslationLength; max_words: 0 to
// kMaxTranslationLength - 1; beam: 1 (greedy) to 16 -> what translatorTranslate returns
// (translation_result.hpp; weights the last decoder layer's cross-attention averaged over its
// heads, scores empty), and layers, heads, and
//   crossWeights: Float32Array(layers * heads * (m + 1) * n), layer l's head j's row t (the id
//   written at step t, the last row </s>) at ((l heads + j) (m + 1) + t) n,
//   wordCrossWeights: Float32Array(layers * heads * (W + 1) * n), the same merged to words as
//   wordWeights is (word_rows: each word's row the mean of its pieces'),
//   encoder: { layers, heads, weights: Float32Array(layers * heads * n * n), and per stage of the
//   residual stream (2 layers + 1) and token, streamRms and inputCosine: Float32Array, per
//   sublayer (2 layers) and token, readRms and writeRms: Float32Array }, row-major as
//   TransformerEncoderTrace (attn/transformer_translator.hpp) holds them.
val translate(const val& tokens, int max_words, int beam) {
  return guarded([&] {
    const char* where = "transformer translator";
    const std::optional<LoadedTransformer>& loaded = loaded_transformer();
    if (!loaded) {
      throw InvalidArgument(std::string(where) + ": no Transformer is loaded; load its file first");
    }
    const TranslationInput input = translation_input(tokens, max_words, *loaded->embeddings, where);
    const TransformerTranslation written = loaded->model.translate(input.ids, max_words, beam);
    const ReadableTranslation readable =
        readable_translation(written.translation, loaded->german, input.tokens);
    val out = translation_result(written.translation, readable, loaded->german, input,
                                 *loaded->embeddings);

    const auto n = static_cast<Eigen::Index>(input.ids.size());
    const auto rows = static_cast<Eigen::Index>(written.translation.words.size()) + 1;
    const auto word_count = static_cast<Eigen::Index>(readable.words.size()) + 1;
    const int maps = written.layers * written.heads;
    std::vector<float> words(static_cast<size_t>(maps * word_count * n));
    for (int k = 0; k < maps; ++k) {
      const Eigen::Map<const Matrix> head(written.cross_weights.data() + k * rows * n, rows, n);
      Eigen::Map<Matrix>(words.data() + k * word_count * n, word_count, n) =
          word_rows(head, readable.first_piece);
    }
    out.set("layers", written.layers);
    out.set("heads", written.heads);
    out.set("crossWeights",
            float32_array(written.cross_weights.data(), written.cross_weights.size()));
    out.set("wordCrossWeights", float32_array(words.data(), words.size()));
    const TransformerEncoderTrace& trace = written.encoder;
    val encoder = val::object();
    encoder.set("layers", trace.layers);
    encoder.set("heads", trace.heads);
    encoder.set("weights", float32_array(trace.weights.data(), trace.weights.size()));
    encoder.set("streamRms", float32_array(trace.stream_rms.data(), trace.stream_rms.size()));
    encoder.set("inputCosine", float32_array(trace.input_cosine.data(), trace.input_cosine.size()));
    encoder.set("readRms", float32_array(trace.read_rms.data(), trace.read_rms.size()));
    encoder.set("writeRms", float32_array(trace.write_rms.data(), trace.write_rms.size()));
    out.set("encoder", encoder);
    return out;
  });
}

}  // namespace
}  // namespace attn::bindings

EMSCRIPTEN_BINDINGS(attention_transformer) {
  using namespace attn::bindings;
  emscripten::function("transformerLoad", &load);
  emscripten::function("transformerTranslate", &translate);
}

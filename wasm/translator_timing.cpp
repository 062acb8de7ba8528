// The embind surface of timing the translators' training (lesson 2's recurrence slide): one
// class, TranslatorTiming, holding lesson 1's attention translator and lesson 2's Transformer at
// their committed sizes and training settings (attn/committed_translators.hpp), built from a seed
// on the loaded word vectors, and a file of sentence pairs that is their one batch. Each step()
// trains one of them for one step on that batch. web/src/engine/translator-timing.js checks the
// arguments, fills in the defaults and frees the instance in dispose(); here they are converted.
#include <emscripten/bind.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "attn/committed_translators.hpp"
#include "attn/lm_weights.hpp"
#include "attn/transformer_training.hpp"
#include "attn/translation_corpus.hpp"
#include "attn/translator_training.hpp"
#include "convert.hpp"
#include "loaded_embeddings.hpp"

namespace attn::bindings {
namespace {

constexpr const char* kWhere = "translator timing";

// The models step() names.
enum TimedModel { kAttention = 0, kTransformer = 1 };

// A file of sentence pairs over the loaded vectors' vocabulary: bytes -> its pairs.
TranslationPairs pairs_from(const val& bytes, const Embeddings& embeddings) {
  const ByteCopy copy = bytes_from(bytes, kWhere, "pairs");
  TranslationPairs pairs;
  try {
    pairs = parse_translation_pairs(copy.data(), copy.size());
  } catch (const InvalidArgument& error) {
    throw InvalidArgument(std::string(kWhere) + ": pairs is not a file of sentence pairs (" +
                          error.what() + ")");
  }
  if (pairs.english_hash != vocabulary_hash(embeddings) ||
      pairs.english_classes != static_cast<std::uint32_t>(embeddings.size()) + 1 ||
      pairs.english_unknown != static_cast<std::uint32_t>(embeddings.size())) {
    throw InvalidArgument(std::string(kWhere) +
                          ": pairs indexes another vocabulary than the loaded word vectors'");
  }
  if (pairs.pairs.size() > 4096) {
    throw InvalidArgument(std::string(kWhere) + ": pairs holds more than 4096 pairs");
  }
  return pairs;
}

// options: the committed settings with the facade's seed, and its warm-up and dropout where they
// are not -1 (each model's own committed value).
template <typename Options>
Options timed_options(Options options, const val& given, std::size_t pairs) {
  options.batch = static_cast<int>(pairs);
  options.seed = seed_option(given, kWhere);
  const int warmup = whole_option(given, "warmup", kWhere);
  if (warmup != -1) options.warmup = warmup;
  const double dropout = number_option(given, "dropout", kWhere);
  if (dropout != -1) options.dropout = dropout;
  return options;
}

class TranslatorTiming {
 public:
  // pairs: a file of sentence pairs (Uint8Array, docs/translation-corpus.md) over the loaded
  // vectors' vocabulary, all of it one batch; options: { seed, warmup, dropout }, every field
  // present (the facade fills in the defaults).
  TranslatorTiming(const val& pairs, const val& options) {
    const std::shared_ptr<const Embeddings>& embeddings = loaded_embeddings();
    if (!embeddings) {
      throw InvalidArgument(std::string(kWhere) +
                            ": no word vectors are loaded; call loadEmbeddings(bytes) first");
    }
    const Embeddings& vectors = *embeddings;
    file_ = pairs_from(pairs, vectors);
    const std::uint64_t seed = seed_option(options, kWhere);
    const MatrixT<float> word_vectors = vectors.vocabulary_vectors().cast<float>();

    // A model's committed sizes with the vectors' and the file's vocabularies and the seed.
    const auto sized = [&](auto config) {
      config.source_words = vectors.size();
      config.source_width = vectors.dim();
      config.target_words = static_cast<int>(file_.german_classes);
      config.seed = seed;
      return config;
    };
    TranslatorConfig recurrent = sized(committed_translator_sizes());
    recurrent.bridge = Bridge::attention;
    attention_ = std::make_unique<TranslatorTraining>(
        recurrent, word_vectors, file_.pairs,
        timed_options(committed_translator_training(), options, file_.pairs.size()));
    transformer_ = std::make_unique<TransformerTraining>(
        sized(committed_transformer_sizes()), word_vectors, file_.pairs,
        timed_options(committed_transformer_training(), options, file_.pairs.size()));
  }

  // -> { pairs, englishTokens, germanTokens, targetWords, attention: { parameters },
  // transformer: { parameters, dModel, heads, encoderLayers, decoderLayers, dMlp } }
  val info() {
    long english = 0, german = 0;
    for (const SentencePair& p : file_.pairs) {
      english += static_cast<long>(p.english.size());
      german += static_cast<long>(p.german.size());
    }
    val out = val::object();
    out.set("pairs", static_cast<double>(file_.pairs.size()));
    out.set("englishTokens", static_cast<double>(english));
    out.set("germanTokens", static_cast<double>(german));
    out.set("targetWords", static_cast<double>(file_.german_classes));
    val attention = val::object();
    attention.set("parameters", parameters_of(attention_->parameters()));
    out.set("attention", attention);
    const TransformerTranslatorConfig& c = transformer_->model().config();
    val transformer = val::object();
    transformer.set("parameters", parameters_of(transformer_->parameters()));
    transformer.set("dModel", c.d_model);
    transformer.set("heads", c.heads);
    transformer.set("encoderLayers", c.encoder_layers);
    transformer.set("decoderLayers", c.decoder_layers);
    transformer.set("dMlp", c.d_mlp);
    out.set("transformer", transformer);
    return out;
  }

  // model: 0 the attention translator, 1 the Transformer -> the batch's loss before the step's
  // update (mean cross-entropy per German piece and </s>; the Transformer's label-smoothed).
  float step(int model) {
    return guarded([&] { return on(model, [](auto& training) { return training.step().loss; }); });
  }

  // model: 0 or 1 -> the steps it has taken
  double steps(int model) {
    return guarded(
        [&] { return on(model, [](auto& t) { return static_cast<double>(t.steps_taken()); }); });
  }

 private:
  // call(training) on model 0 or 1's training; throws InvalidArgument on any other model.
  template <typename Call>
  auto on(int model, const Call& call) -> decltype(call(std::declval<TranslatorTraining&>())) {
    if (model == kAttention) return call(*attention_);
    if (model == kTransformer) return call(*transformer_);
    throw InvalidArgument(std::string(kWhere) + ": model must be 0 or 1");
  }

  static double parameters_of(const std::vector<Parameter<float>*>& parameters) {
    double count = 0;
    for (const Parameter<float>* p : parameters) count += static_cast<double>(p->value.size());
    return count;
  }

  TranslationPairs file_;
  std::unique_ptr<TranslatorTraining> attention_;
  std::unique_ptr<TransformerTraining> transformer_;
};

// The constructor JavaScript calls: bad options or files become a JavaScript Error.
TranslatorTiming* create(const val& pairs, const val& options) {
  return guarded([&] { return new TranslatorTiming(pairs, options); });
}

}  // namespace
}  // namespace attn::bindings

EMSCRIPTEN_BINDINGS(attention_translator_timing) {
  using namespace attn::bindings;
  emscripten::class_<TranslatorTiming>("TranslatorTiming")
      .constructor(&create, emscripten::allow_raw_pointers())
      .function("info", &TranslatorTiming::info)
      .function("step", &TranslatorTiming::step)
      .function("steps", &TranslatorTiming::steps);
}

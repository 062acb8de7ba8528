// The embind surface of training a language model live: one class, LanguageModelTraining, over
// attn::LanguageModelTraining, trained on the page's word vectors (loadEmbeddings first) and a
// corpus sample (docs/corpus.md). web/src/engine/lm-training.js checks the options, fills in the
// defaults and frees the instance in dispose(); here they are converted and results copied out.
#include "attn/lm_training.hpp"

#include <emscripten/bind.h>

#include <memory>
#include <string>
#include <vector>

#include "attn/corpus.hpp"
#include "attn/lm_analysis.hpp"
#include "attn/lm_weights.hpp"
#include "convert.hpp"
#include "loaded_embeddings.hpp"

namespace attn::bindings {
namespace {

constexpr const char* kWhere = "language model training";

// A corpus split of the page's vocabulary: bytes -> its samples. `what` names it in messages.
Corpus corpus_from(const val& bytes, const Embeddings& embeddings, const char* what) {
  const ByteCopy copy = bytes_from(bytes, kWhere, what);
  Corpus corpus;
  try {
    corpus = parse_corpus(copy.data(), copy.size());
  } catch (const InvalidArgument& error) {
    throw InvalidArgument(std::string(kWhere) + ": " + what + " is not a corpus file (" +
                          error.what() + ")");
  }
  if (corpus.vocab_hash != vocabulary_hash(embeddings) ||
      corpus.classes != static_cast<std::uint32_t>(embeddings.size()) + 1 ||
      corpus.unknown_id != static_cast<std::uint32_t>(embeddings.size())) {
    throw InvalidArgument(std::string(kWhere) + ": " + what +
                          " indexes another vocabulary than the loaded word vectors'");
  }
  return corpus;
}

class LiveLanguageModel {
 public:
  // options: { words, dModel, layers, heads, dMlp, context, positionScale, seed, steps, batch,
  // learningRate, warmup, finalLrFraction, clip, repeatFraction, minRun, maxRun,
  // measureSequences, probeLength }, every field present (the facade fills in the defaults). train,
  // heldOut: corpus files (Uint8Array) of the loaded vectors' vocabulary.
  LiveLanguageModel(const val& options, const val& train, const val& held_out) {
    const std::shared_ptr<const Embeddings>& embeddings = loaded_embeddings();
    if (!embeddings) {
      throw InvalidArgument(std::string(kWhere) +
                            ": no word vectors are loaded; call loadEmbeddings(bytes) first");
    }
    const Embeddings& vectors = *embeddings;
    words_ = whole_option(options, "words", kWhere);
    if (words_ < 2 || words_ > vectors.size()) {
      throw InvalidArgument(std::string(kWhere) + ": words must be from 2 to " +
                            std::to_string(vectors.size()));
    }
    for (int id = 0; id < words_; ++id) vocabulary_.push_back(vectors.vocabulary().word(id));
    LanguageModelConfig config;
    config.vocab = words_ + 1;
    config.d_embed = vectors.dim();
    config.d_model = whole_option(options, "dModel", kWhere);
    config.layers = whole_option(options, "layers", kWhere);
    config.heads = whole_option(options, "heads", kWhere);
    config.d_mlp = whole_option(options, "dMlp", kWhere);
    config.context = whole_option(options, "context", kWhere);
    config.position_scale = static_cast<float>(number_option(options, "positionScale", kWhere));
    config.seed = seed_option(options, kWhere);

    LanguageModelTrainingOptions t;
    t.steps = whole_option(options, "steps", kWhere);
    t.batch = whole_option(options, "batch", kWhere);
    t.learning_rate = number_option(options, "learningRate", kWhere);
    t.warmup = whole_option(options, "warmup", kWhere);
    t.final_lr_fraction = number_option(options, "finalLrFraction", kWhere);
    t.clip = number_option(options, "clip", kWhere);
    t.repeat_fraction = number_option(options, "repeatFraction", kWhere);
    t.min_run = whole_option(options, "minRun", kWhere);
    t.max_run = whole_option(options, "maxRun", kWhere);
    t.seed = config.seed;

    const Corpus train_corpus = corpus_from(train, vectors, "the training text");
    const Corpus held_out_corpus = corpus_from(held_out, vectors, "the held-out text");
    train_tokens_ = static_cast<double>(train_corpus.tokens());
    measurement_ =
        head_measurement(keep_first_words(held_out_corpus.samples, words_), config.context, words_,
                         whole_option(options, "measureSequences", kWhere), config.seed,
                         whole_option(options, "probeLength", kWhere));
    training_ = std::make_unique<LanguageModelTraining>(
        config, first_word_vectors(language_model_word_vectors(vectors), words_),
        keep_first_words(train_corpus.samples, words_), t);
  }

  // -> { parameters, trainTokens, words, copyLength }
  val info() const {
    val out = val::object();
    out.set("parameters",
            static_cast<double>(language_model_parameter_count(training_->model().config())));
    out.set("trainTokens", train_tokens_);
    out.set("words", words_);
    out.set("copyLength", measurement_.copy_length);
    return out;
  }

  // -> (n) losses, each the batch's before its step's update
  val step(int n) {
    return guarded([&] {
      if (n < 1 || n > 100000) throw InvalidArgument(std::string(kWhere) + ": n must be >= 1");
      std::vector<float> losses;
      losses.reserve(static_cast<size_t>(n));
      for (int i = 0; i < n; ++i) losses.push_back(training_->step().loss);
      return float32_array(losses.data(), losses.size());
    });
  }

  // -> (layers * heads) { layer, head, previousToken, firstToken, self, induction, kind },
  // measured on the held-out text and the repeated runs (lm_training.hpp, HeadMeasurement).
  val measure() const {
    return guarded([&] {
      const std::vector<HeadScores> heads = measure_heads(
          training_->model(), measurement_.text, measurement_.repeated, measurement_.copy_length);
      val out = val::array();
      for (const HeadScores& h : heads) {
        val head = val::object();
        head.set("layer", h.layer);
        head.set("head", h.head);
        head.set("previousToken", h.pattern.previous_token);
        head.set("firstToken", h.pattern.first_token);
        head.set("self", h.pattern.self);
        head.set("induction", h.induction);
        head.set("kind", h.kind);
        out.call<void>("push", head);
      }
      return out;
    });
  }

  // -> { words: (n) strings, null for the unknown word, weights: Float32Array(layers * heads *
  // n * n) } on the probe (a held-out phrase, then the same phrase again); layer l's head j at
  // offset ((l * heads) + j) * n * n, each (n, n) row-major.
  val probe() const {
    return guarded([&] {
      const std::vector<int>& ids = measurement_.probe;
      const LanguageModelPass<float> pass =
          training_->model().forward(ids, LogitRows::last_position);
      const std::vector<float> weights = pass.all_attention_weights();
      val words = val::array();
      for (const int id : ids) {
        words.call<void>("push",
                         id < words_ ? val(vocabulary_[static_cast<size_t>(id)]) : val::null());
      }
      val out = val::object();
      out.set("words", words);
      out.set("weights", float32_array(weights.data(), weights.size()));
      return out;
    });
  }

  double steps() const { return static_cast<double>(training_->steps_taken()); }

 private:
  std::vector<std::string> vocabulary_;  // (words) the words the model keeps
  int words_ = 0;
  double train_tokens_ = 0;
  HeadMeasurement measurement_;
  std::unique_ptr<LanguageModelTraining> training_;
};

// The constructor JavaScript calls: bad options or files become a JavaScript Error.
LiveLanguageModel* create(const val& options, const val& train, const val& held_out) {
  return guarded([&] { return new LiveLanguageModel(options, train, held_out); });
}

}  // namespace
}  // namespace attn::bindings

EMSCRIPTEN_BINDINGS(attention_language_model_training) {
  using namespace attn::bindings;
  emscripten::class_<LiveLanguageModel>("LanguageModelTraining")
      .constructor(&create, emscripten::allow_raw_pointers())
      .function("info", &LiveLanguageModel::info)
      .function("step", &LiveLanguageModel::step)
      .function("measure", &LiveLanguageModel::measure)
      .function("probe", &LiveLanguageModel::probe)
      .function("steps", &LiveLanguageModel::steps);
}

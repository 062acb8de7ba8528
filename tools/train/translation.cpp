// attn_train translation: trains the page's two translation models natively on the translation
// corpus
// (docs/translation-corpus.md), each in a thread of its own, on the same batches in the same
// order from the same initial weights, and writes both with the German vocabulary into the file
// the page ships (docs/translation.md, "Training").
//
// Reads the corpus splits (build/corpus/translation/{train,validation,test}.bin), its German
// vocabulary (german-vocab.txt) and the page's word vectors (docs/embeddings.md), checking that
// the corpus indexes those very vocabularies. Trains on the core's training loop
// (attn/training_loop.hpp) and prints its JSON lines, each naming its model:
// {"model","step","epoch","loss","gradNorm","lr","tokens","seconds"} every --log-every steps, and
// {"model","step","validationLoss","validationPerplexity",...} every --eval-every steps on the
// first --eval-pairs validation pairs; each model keeps the weights of its evaluation with the
// lowest validation loss (the summary's keptStep). At the end the weights go through the 8-bit file
// and back, and the validation and test perplexities of those dequantised models go into --summary.
// With
// --translations FILE it also writes, for every test pair, each model's greedy translation and
// attention weights as JSON lines.
//
// Flags: [--bridge both|attention|fixed-vector] [--steps N] [--seed N] [--batch N] [--lr X]
//        [--warmup N] [--final-lr-fraction X] [--clip X] [--dropout X] [--log-every N]
//        [--eval-every N] [--eval-pairs N] [--corpus DIR] [--vectors FILE] [--out FILE]
//        [--summary FILE] [--translations FILE]
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "../command_line.hpp"
#include "../files.hpp"
#include "attn/embeddings.hpp"
#include "attn/lm_weights.hpp"
#include "attn/training_loop.hpp"
#include "attn/translation_corpus.hpp"
#include "attn/translator.hpp"
#include "attn/translator_training.hpp"
#include "attn/translator_weights.hpp"
#include "models.hpp"
#include "translation_data.hpp"

namespace attn::tools {
namespace {

// The committed settings (npm run train:translation uses these defaults): about twenty-five epochs
// of the training split, dropout 0.1 (docs/translation.md, "Training it").
TranslatorTrainingOptions committed_training() {
  TranslatorTrainingOptions t;
  t.steps = 15000;
  t.batch = 64;
  t.learning_rate = 2e-3;
  t.warmup = 200;
  t.final_lr_fraction = 0.1;
  t.clip = 1.0;
  t.seed = 1;
  t.dropout = 0.1;
  return t;
}

struct Options {
  std::vector<Bridge> bridges{Bridge::fixed_vector, Bridge::attention};
  TranslatorTrainingOptions training = committed_training();
  long log_every = 50;
  long eval_every = 1000;
  int eval_pairs = 1000;
  std::string corpus = "build/corpus/translation";
  std::string vectors = "web/public/embeddings/en-20k-100d.bin";
  std::string out = "web/public/models/translation.bin";
  std::string summary = "build/translation/summary.json";
  std::string translations;
};

Options parse(int argc, char** argv) {
  Options o;
  TranslatorTrainingOptions& t = o.training;
  CommandLine line("attn_train translation");
  line.choice("--bridge", {"both", "attention", "fixed-vector"},
              [&o](std::size_t i) {
                if (i == 1) o.bridges = {Bridge::attention};
                if (i == 2) o.bridges = {Bridge::fixed_vector};
              })
      .schedule(t.steps, t.seed, t.batch, t.learning_rate, t.warmup, t.final_lr_fraction, t.clip)
      .number("--dropout", t.dropout)
      .whole("--log-every", o.log_every)
      .whole("--eval-every", o.eval_every)
      .whole("--eval-pairs", o.eval_pairs)
      .text("--corpus", "DIR", o.corpus)
      .text("--vectors", "FILE", o.vectors)
      .text("--out", "FILE", o.out)
      .text("--summary", "FILE", o.summary)
      .text("--translations", "FILE", o.translations)
      .parse(argc, argv);
  line.check([&] { check_translator_training_options(t); });
  if (o.log_every < 1) line.usage("--log-every must be >= 1");
  if (o.eval_every < 0) line.usage("--eval-every must be >= 0");
  if (o.eval_pairs < 1) line.usage("--eval-pairs must be >= 1");
  return o;
}

// Trains `training`'s model from its seeded start on the core's training loop, printing as the
// header says, and leaves it with the weights of the evaluation whose validation loss was lowest.
TrainingRunResult train_model(TranslatorTraining& training, const Options& o, const char* name,
                              const std::vector<SentencePair>& eval_pairs) {
  TrainingRunOptions run;
  run.model = name;
  run.log_every = o.log_every;
  run.eval_every = o.eval_every;
  run.keep_best = true;
  const auto held_out = [&] {
    const HeldOutLoss v = held_out_loss(training.model(), eval_pairs, 64);
    return HeldOut{v.loss, v.tokens, ""};
  };
  return run_training(training.loop(), training, held_out, run, print_line);
}

// Every test pair's greedy translation by each model, as JSON lines.
void write_translations(const std::string& path,
                        const std::vector<const Translator<float>*>& models,
                        const std::vector<SentencePair>& pairs) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot write " + path);
  for (const Translator<float>* model : models) {
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const int longest =
          std::min(kMaxTranslationLength - 1, 2 * static_cast<int>(pairs[i].english.size()) + 10);
      const Translation t = model->translate(pairs[i].english, longest);
      std::fprintf(f, "{\"model\":\"%s\",\"pair\":%zu,\"words\":[",
                   bridge_name(model->config().bridge), i);
      for (std::size_t w = 0; w < t.words.size(); ++w) {
        std::fprintf(f, w ? ",%d" : "%d", t.words[w]);
      }
      std::fprintf(f, "],\"weights\":[");
      for (Eigen::Index k = 0; k < t.weights.size(); ++k) {
        std::fprintf(f, k ? ",%.4g" : "%.4g", static_cast<double>(t.weights.data()[k]));
      }
      std::fprintf(f, "]}\n");
    }
  }
  if (std::fclose(f) != 0) throw std::runtime_error("cannot write " + path);
}

}  // namespace

int train_translation(int argc, char** argv) {
  const Options o = parse(argc, argv);
  // A step allocates and frees the same large matrices (the logits of a batch are tens of MB):
  // keeping them on the heap instead of fresh mappings spares the kernel zeroing new pages.
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  try {
    const TranslationData data(o.corpus, o.vectors, o.eval_pairs);
    const Embeddings& vectors = data.vectors;
    const TranslationPairs &train = data.train, &validation = data.validation, &test = data.test;
    const std::string& vocabulary = data.vocabulary;
    const MatrixT<float>& word_vectors = data.word_vectors;
    const std::vector<SentencePair>& eval_pairs = data.eval_pairs;

    TranslatorConfig config;
    config.source_words = vectors.size();
    config.source_width = vectors.dim();
    config.target_words = static_cast<int>(train.german_classes);
    config.seed = o.training.seed;

    // Both models at once, one thread each: they share nothing but what they only read.
    std::vector<std::unique_ptr<TranslatorTraining>> trainings;
    for (const Bridge bridge : o.bridges) {
      TranslatorConfig c = config;
      c.bridge = bridge;
      trainings.push_back(
          std::make_unique<TranslatorTraining>(c, word_vectors, train.pairs, o.training));
      print_line(start_line(bridge_name(bridge), train.pairs.size(),
                            parameter_count(trainings.back()->model()), o.training));
    }
    std::vector<TrainingRunResult> runs(trainings.size());
    std::vector<std::string> errors(trainings.size());
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < trainings.size(); ++i) {
      threads.emplace_back([&, i] {
        try {
          runs[i] = train_model(*trainings[i], o, bridge_name(o.bridges[i]), eval_pairs);
        } catch (const std::exception& e) {
          errors[i] = e.what();
        }
      });
    }
    for (std::thread& t : threads) t.join();
    for (const std::string& e : errors) {
      if (!e.empty()) throw std::runtime_error(e);
    }

    // What the page ships: the 8-bit file, read back.
    std::vector<Translator<float>*> models;
    for (auto& t : trainings) models.push_back(&t->model());
    const std::vector<std::uint8_t> file =
        encode_translators(models, vocabulary, vocabulary_hash(vectors));
    write_file(o.out, file);
    const TranslatorWeights weights = parse_translators(file.data(), file.size());
    std::string summary = "{\n  \"format\": \"attn-translation-training\",\n";
    summary += "  \"weights\": {\"file\": \"" + o.out +
               "\", \"bytes\": " + std::to_string(file.size()) + ", \"storage\": \"int8 rows\"},\n";
    summary += "  \"training\": {" + schedule_summary(o.training) +
               ", \"seed\": " + std::to_string(o.training.seed) +
               ", \"trainPairs\": " + std::to_string(train.pairs.size()) + "},\n";
    summary += "  \"models\": {";
    std::vector<Translator<float>> shipped;
    for (std::size_t i = 0; i < trainings.size(); ++i) {
      shipped.push_back(make_translator(weights, o.bridges[i], word_vectors));
      const HeldOutLoss v = held_out_loss(shipped.back(), validation.pairs, 64);
      const HeldOutLoss t = held_out_loss(shipped.back(), test.pairs, 64);
      const std::size_t parameters = parameter_count(trainings[i]->model());
      summary += std::string(i ? ",\n" : "\n") + "    \"" + bridge_name(o.bridges[i]) +
                 "\": {\"parameters\": " + std::to_string(parameters) +
                 ", \"trainSeconds\": " + formatted("%.1f", runs[i].seconds) +
                 ", \"tokensPerSecond\": " + formatted("%.0f", runs[i].tokens / runs[i].seconds) +
                 ", \"keptStep\": " + std::to_string(runs[i].kept_step) +
                 ", \"validationPerplexity\": " + formatted("%.3f", std::exp(v.loss)) +
                 ", \"testPerplexity\": " + formatted("%.3f", std::exp(t.loss)) + "}";
    }
    summary += "\n  }\n}\n";
    write_file(o.summary, summary);
    print_line(summary);
    if (!o.translations.empty()) {
      std::vector<const Translator<float>*> readers;
      for (const auto& m : shipped) readers.push_back(&m);
      write_translations(o.translations, readers, test.pairs);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "attn_train translation: %s\n", e.what());
    return 1;
  }
}

}  // namespace attn::tools

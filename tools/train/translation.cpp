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
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "../command_line.hpp"
#include "../files.hpp"
#include "attn/committed_translators.hpp"
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

struct Options {
  std::vector<Bridge> bridges{Bridge::fixed_vector, Bridge::attention};
  TranslatorTrainingOptions training = committed_translator_training();
  TranslationRunFlags run{"web/public/models/translation.bin", "build/translation/summary.json"};
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
      .number("--dropout", t.dropout);
  o.run.declare(line).text("--translations", "FILE", o.translations).parse(argc, argv);
  line.check([&] { check_translator_training_options(t); });
  o.run.check(line);
  return o;
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
  keep_large_blocks_on_heap();
  try {
    const TranslationData data(o.run.corpus, o.run.vectors, o.run.eval_pairs);
    const TranslationPairs& train = data.train;
    const MatrixT<float>& word_vectors = data.word_vectors;
    const TranslatorConfig config = sized_for(committed_translator_sizes(), data, o.training.seed);

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
          runs[i] = train_translation_model(*trainings[i], o.run, bridge_name(o.bridges[i]),
                                            data.eval_pairs);
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
        encode_translators(models, data.vocabulary, vocabulary_hash(data.vectors));
    write_file(o.run.out, file);
    const TranslatorWeights weights = parse_translators(file.data(), file.size());
    std::string summary = "{\n  \"format\": \"attn-translation-training\",\n";
    summary += weights_summary(o.run.out, file.size());
    summary += training_summary(o.training, train.pairs.size());
    summary += "  \"models\": {";
    std::vector<Translator<float>> shipped;
    for (std::size_t i = 0; i < trainings.size(); ++i) {
      shipped.push_back(make_translator(weights, o.bridges[i], word_vectors));
      const std::size_t parameters = parameter_count(trainings[i]->model());
      summary += std::string(i ? ",\n" : "\n") + "    \"" + bridge_name(o.bridges[i]) +
                 "\": {\"parameters\": " + std::to_string(parameters) +
                 ", \"trainSeconds\": " + formatted("%.1f", runs[i].seconds) +
                 ", \"tokensPerSecond\": " + formatted("%.0f", runs[i].tokens / runs[i].seconds) +
                 shipped_summary(shipped.back(), runs[i].kept_step, data) + "}";
    }
    summary += "\n  }\n}\n";
    write_file(o.run.summary, summary);
    print_line(summary);
    if (!o.translations.empty()) {
      std::vector<const Translator<float>*> readers;
      for (const auto& m : shipped) readers.push_back(&m);
      write_translations(o.translations, readers, data.test.pairs);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "attn_train translation: %s\n", e.what());
    return 1;
  }
}

}  // namespace attn::tools

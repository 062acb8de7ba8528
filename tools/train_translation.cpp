// Trains the page's two translation models natively on the translation corpus
// (docs/translation-corpus.md), each in a thread of its own, on the same batches in the same
// order from the same initial weights, and writes both with the German vocabulary into the file
// the page ships (docs/translation.md, "Training").
//
// Reads the corpus splits (build/corpus/translation/{train,validation,test}.bin), its German
// vocabulary (german-vocab.txt) and the page's word vectors (docs/embeddings.md), checking that
// the corpus indexes those very vocabularies. Prints JSON lines, each naming its model:
// {"model","step","loss","gradNorm","lr","tokens","seconds"} every --log-every steps, and
// {"model","step","validationLoss","validationPerplexity"} every --eval-every steps on the first
// --eval-pairs validation pairs; each model keeps the weights of its evaluation with the lowest
// validation loss (the summary's keptStep). At the end the weights go through the 8-bit file and
// back, and the validation and test perplexities of those dequantised models go into --summary.
// With
// --translations FILE it also writes, for every test pair, each model's greedy translation and
// attention weights as JSON lines.
//
// Usage: attn_train_translation [--bridge both|attention|fixed-vector] [--steps N] [--seed N]
//          [--batch N] [--lr X] [--warmup N] [--final-lr-fraction X] [--clip X] [--dropout X]
//          [--log-every N] [--eval-every N] [--eval-pairs N] [--corpus DIR] [--vectors FILE]
//          [--out FILE] [--summary FILE] [--translations FILE]
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

#include "attn/embeddings.hpp"
#include "attn/lm_weights.hpp"
#include "attn/translation_corpus.hpp"
#include "attn/translator.hpp"
#include "attn/translator_training.hpp"
#include "attn/translator_weights.hpp"
#include "command_line.hpp"
#include "files.hpp"

namespace {

// The committed settings (npm run train:translation uses these defaults): about twenty-five epochs
// of the training split, dropout 0.1 (docs/translation.md, "Training it").
attn::TranslatorTrainingOptions committed_training() {
  attn::TranslatorTrainingOptions t;
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
  std::vector<attn::Bridge> bridges{attn::Bridge::fixed_vector, attn::Bridge::attention};
  attn::TranslatorTrainingOptions training = committed_training();
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
  attn::TranslatorTrainingOptions& t = o.training;
  attn::tools::CommandLine line("attn_train_translation");
  line.choice("--bridge", {"both", "attention", "fixed-vector"},
              [&o](std::size_t i) {
                if (i == 1) o.bridges = {attn::Bridge::attention};
                if (i == 2) o.bridges = {attn::Bridge::fixed_vector};
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
  if (o.log_every < 1) line.usage("--log-every must be >= 1");
  if (o.eval_every < 0) line.usage("--eval-every must be >= 0");
  if (o.eval_pairs < 1) line.usage("--eval-pairs must be >= 1");
  return o;
}

using attn::tools::read_file;
using attn::tools::write_file;

attn::TranslationPairs read_pairs(const std::string& dir, const char* split,
                                  std::uint32_t expected_split, const attn::Embeddings& vectors) {
  const std::string path = dir + "/" + split + ".bin";
  const std::vector<std::uint8_t> bytes = read_file(path);
  attn::TranslationPairs p = attn::parse_translation_pairs(bytes.data(), bytes.size());
  if (p.split != expected_split) throw std::runtime_error(path + " holds another split");
  if (p.english_hash != attn::vocabulary_hash(vectors) ||
      p.english_classes != static_cast<std::uint32_t>(vectors.size()) + 1 ||
      p.english_unknown != static_cast<std::uint32_t>(vectors.size())) {
    throw std::runtime_error(path + " indexes another vocabulary than the word vectors'");
  }
  return p;
}

std::string fmt(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// One line of output at a time from either thread.
std::mutex output;

void print_line(const std::string& line) {
  const std::lock_guard<std::mutex> lock(output);
  std::fputs((line + "\n").c_str(), stdout);
  std::fflush(stdout);
}

struct Run {
  double seconds = 0;
  long tokens = 0;
  long best_step = 0;  // the evaluation whose weights the model ends with (0: none ran)
  double best_loss = 0;
};

// Trains `training`'s model from its seeded start, printing as the header says, and leaves it
// with the weights of the evaluation whose validation loss was lowest: a longer run than the
// data supports then costs time, not quality.
Run train_model(attn::TranslatorTraining& training, const Options& o, const char* name,
                const std::vector<attn::SentencePair>& eval_pairs) {
  const auto started = std::chrono::steady_clock::now();
  const auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  Run run;
  double loss_sum = 0;
  long loss_count = 0;
  const std::string model = std::string("{\"model\":\"") + name + "\",";
  std::vector<attn::Parameter<float>*> parameters = training.model().parameters();
  std::vector<attn::MatrixT<float>> best;
  for (long step = 1; step <= o.training.steps; ++step) {
    const attn::TranslatorTraining::Step s = training.step();
    run.tokens += s.tokens;
    loss_sum += static_cast<double>(s.loss);
    ++loss_count;
    if (step % o.log_every == 0 || step == o.training.steps) {
      print_line(model + "\"step\":" + std::to_string(step) +
                 ",\"epoch\":" + std::to_string(training.epochs_started()) +
                 ",\"loss\":" + fmt("%.5f", loss_sum / static_cast<double>(loss_count)) +
                 ",\"gradNorm\":" + fmt("%.4g", s.gradient_norm) + ",\"lr\":" +
                 fmt("%.5g", s.learning_rate) + ",\"tokens\":" + std::to_string(run.tokens) +
                 ",\"seconds\":" + fmt("%.1f", seconds()) + "}");
      loss_sum = 0;
      loss_count = 0;
    }
    if (o.eval_every > 0 && (step % o.eval_every == 0 || step == o.training.steps)) {
      const attn::HeldOutLoss v = attn::held_out_loss(training.model(), eval_pairs, 64);
      print_line(model + "\"step\":" + std::to_string(step) +
                 ",\"validationLoss\":" + fmt("%.5f", v.loss) + ",\"validationPerplexity\":" +
                 fmt("%.3f", std::exp(v.loss)) + ",\"seconds\":" + fmt("%.1f", seconds()) + "}");
      if (run.best_step == 0 || v.loss < run.best_loss) {
        run.best_step = step;
        run.best_loss = v.loss;
        best.clear();
        for (const attn::Parameter<float>* p : parameters) best.push_back(p->value);
      }
    }
  }
  if (run.best_step != 0 && run.best_step != o.training.steps) {
    for (std::size_t i = 0; i < parameters.size(); ++i) parameters[i]->value = best[i];
  }
  run.seconds = seconds();
  return run;
}

// Every test pair's greedy translation by each model, as JSON lines.
void write_translations(const std::string& path,
                        const std::vector<const attn::Translator<float>*>& models,
                        const std::vector<attn::SentencePair>& pairs) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot write " + path);
  for (const attn::Translator<float>* model : models) {
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const int longest = std::min(attn::kMaxTranslationLength - 1,
                                   2 * static_cast<int>(pairs[i].english.size()) + 10);
      const attn::Translation t = model->translate(pairs[i].english, longest);
      std::fprintf(f, "{\"model\":\"%s\",\"pair\":%zu,\"words\":[",
                   attn::bridge_name(model->config().bridge), i);
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

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  // A step allocates and frees the same large matrices (the logits of a batch are tens of MB):
  // keeping them on the heap instead of fresh mappings spares the kernel zeroing new pages.
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  try {
    const std::vector<std::uint8_t> vector_bytes = read_file(o.vectors);
    const attn::Embeddings vectors =
        attn::Embeddings::parse(vector_bytes.data(), vector_bytes.size());
    const attn::TranslationPairs train = read_pairs(o.corpus, "train", 0, vectors);
    const attn::TranslationPairs validation = read_pairs(o.corpus, "validation", 1, vectors);
    const attn::TranslationPairs test = read_pairs(o.corpus, "test", 2, vectors);
    const std::vector<std::uint8_t> vocabulary_bytes = read_file(o.corpus + "/german-vocab.txt");
    const std::string vocabulary(vocabulary_bytes.begin(), vocabulary_bytes.end());
    for (const attn::TranslationPairs* split : {&train, &validation, &test}) {
      if (split->german_hash != attn::fnv1a32(vocabulary)) {
        throw std::runtime_error("the splits do not index german-vocab.txt");
      }
    }

    attn::TranslatorConfig config;
    config.source_words = vectors.size();
    config.source_width = vectors.dim();
    config.target_words = static_cast<int>(train.german_classes);
    config.seed = o.training.seed;
    const attn::MatrixT<float> word_vectors = vectors.vocabulary_vectors().cast<float>();
    const std::vector<attn::SentencePair> eval_pairs(
        validation.pairs.begin(),
        validation.pairs.begin() +
            std::min<long>(o.eval_pairs, static_cast<long>(validation.pairs.size())));

    // Both models at once, one thread each: they share nothing but what they only read.
    std::vector<std::unique_ptr<attn::TranslatorTraining>> trainings;
    for (const attn::Bridge bridge : o.bridges) {
      attn::TranslatorConfig c = config;
      c.bridge = bridge;
      trainings.push_back(
          std::make_unique<attn::TranslatorTraining>(c, word_vectors, train.pairs, o.training));
      std::size_t parameters = 0;
      for (auto* p : trainings.back()->model().parameters()) {
        parameters += static_cast<std::size_t>(p->value.size());
      }
      print_line(std::string("{\"event\":\"start\",\"model\":\"") + attn::bridge_name(bridge) +
                 "\",\"trainPairs\":" + std::to_string(train.pairs.size()) + ",\"parameters\":" +
                 std::to_string(parameters) + ",\"batch\":" + std::to_string(o.training.batch) +
                 ",\"steps\":" + std::to_string(o.training.steps) +
                 ",\"seed\":" + std::to_string(o.training.seed) + "}");
    }
    std::vector<Run> runs(trainings.size());
    std::vector<std::string> errors(trainings.size());
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < trainings.size(); ++i) {
      threads.emplace_back([&, i] {
        try {
          runs[i] = train_model(*trainings[i], o, attn::bridge_name(o.bridges[i]), eval_pairs);
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
    std::vector<attn::Translator<float>*> models;
    for (auto& t : trainings) models.push_back(&t->model());
    const std::vector<std::uint8_t> file =
        attn::encode_translators(models, vocabulary, attn::vocabulary_hash(vectors));
    write_file(o.out, file);
    const attn::TranslatorWeights weights = attn::parse_translators(file.data(), file.size());
    std::string summary = "{\n  \"format\": \"attn-translation-training\",\n";
    summary += "  \"weights\": {\"file\": \"" + o.out +
               "\", \"bytes\": " + std::to_string(file.size()) + ", \"storage\": \"int8 rows\"},\n";
    summary += "  \"training\": {\"steps\": " + std::to_string(o.training.steps) +
               ", \"batch\": " + std::to_string(o.training.batch) +
               ", \"learningRate\": " + fmt("%g", o.training.learning_rate) +
               ", \"warmup\": " + std::to_string(o.training.warmup) +
               ", \"finalLrFraction\": " + fmt("%g", o.training.final_lr_fraction) +
               ", \"clip\": " + fmt("%g", o.training.clip) +
               ", \"dropout\": " + fmt("%g", o.training.dropout) +
               ", \"seed\": " + std::to_string(o.training.seed) +
               ", \"trainPairs\": " + std::to_string(train.pairs.size()) + "},\n";
    summary += "  \"models\": {";
    std::vector<attn::Translator<float>> shipped;
    for (std::size_t i = 0; i < trainings.size(); ++i) {
      shipped.push_back(attn::make_translator(weights, o.bridges[i], word_vectors));
      const attn::HeldOutLoss v = attn::held_out_loss(shipped.back(), validation.pairs, 64);
      const attn::HeldOutLoss t = attn::held_out_loss(shipped.back(), test.pairs, 64);
      std::size_t parameters = 0;
      for (auto* p : trainings[i]->model().parameters()) {
        parameters += static_cast<std::size_t>(p->value.size());
      }
      summary += std::string(i ? ",\n" : "\n") + "    \"" + attn::bridge_name(o.bridges[i]) +
                 "\": {\"parameters\": " + std::to_string(parameters) +
                 ", \"trainSeconds\": " + fmt("%.1f", runs[i].seconds) +
                 ", \"tokensPerSecond\": " + fmt("%.0f", runs[i].tokens / runs[i].seconds) +
                 ", \"keptStep\": " + std::to_string(runs[i].best_step) +
                 ", \"validationPerplexity\": " + fmt("%.3f", std::exp(v.loss)) +
                 ", \"testPerplexity\": " + fmt("%.3f", std::exp(t.loss)) + "}";
    }
    summary += "\n  }\n}\n";
    write_file(o.summary, summary);
    print_line(summary);
    if (!o.translations.empty()) {
      std::vector<const attn::Translator<float>*> readers;
      for (const auto& m : shipped) readers.push_back(&m);
      write_translations(o.translations, readers, test.pairs);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "attn_train_translation: %s\n", e.what());
    return 1;
  }
}

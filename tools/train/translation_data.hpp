// What `attn_train translation` and `attn_train transformer` share: their flags for the run and
// its files, the translation corpus and the page's word vectors read and checked against each
// other (docs/translation-corpus.md), a model's run on the training loop, the JSON lines they
// print and the lines of their summaries.
#pragma once

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../command_line.hpp"
#include "../files.hpp"
#include "attn/embeddings.hpp"
#include "attn/lm_weights.hpp"
#include "attn/training_loop.hpp"
#include "attn/translation_corpus.hpp"
#include "attn/translator_training.hpp"
#include "models.hpp"

namespace attn::tools {

// The flags of a translation model's run after its own: how often it logs and measures the
// held-out loss, on how many validation pairs, and the files it reads and writes.
struct TranslationRunFlags {
  long log_every = 50;
  long eval_every = 1000;
  int eval_pairs = 1000;
  std::string corpus = "build/corpus/translation";
  std::string vectors = "web/public/embeddings/en-20k-100d.bin";
  std::string out;      // the weights file
  std::string summary;  // the summary's JSON

  // out and summary: the tool's default files.
  TranslationRunFlags(std::string out, std::string summary)
      : out(std::move(out)), summary(std::move(summary)) {}

  // Declares --log-every --eval-every --eval-pairs --corpus --vectors --out --summary.
  CommandLine& declare(CommandLine& line) {
    return line.whole("--log-every", log_every)
        .whole("--eval-every", eval_every)
        .whole("--eval-pairs", eval_pairs)
        .text("--corpus", "DIR", corpus)
        .text("--vectors", "FILE", vectors)
        .text("--out", "FILE", out)
        .text("--summary", "FILE", summary);
  }

  // After parsing: ends the program with the usage message on a value out of range.
  void check(const CommandLine& line) const {
    if (log_every < 1) line.usage("--log-every must be >= 1");
    if (eval_every < 0) line.usage("--eval-every must be >= 0");
    if (eval_pairs < 1) line.usage("--eval-pairs must be >= 1");
  }
};

// dir/<split>.bin -> its pairs. Throws std::runtime_error naming the file when it holds another
// split or indexes another English vocabulary than the word vectors'.
inline TranslationPairs read_translation_split(const std::string& dir, const char* split,
                                               std::uint32_t expected_split,
                                               const Embeddings& vectors) {
  const std::string path = dir + "/" + split + ".bin";
  const std::vector<std::uint8_t> bytes = read_file(path);
  TranslationPairs p = parse_translation_pairs(bytes.data(), bytes.size());
  if (p.split != expected_split) throw std::runtime_error(path + " holds another split");
  if (p.english_hash != vocabulary_hash(vectors) ||
      p.english_classes != static_cast<std::uint32_t>(vectors.size()) + 1 ||
      p.english_unknown != static_cast<std::uint32_t>(vectors.size())) {
    throw std::runtime_error(path + " indexes another vocabulary than the word vectors'");
  }
  return p;
}

// The corpus's three splits, its German vocabulary and the word vectors they index.
struct TranslationData {
  Embeddings vectors;
  TranslationPairs train, validation, test;
  std::string vocabulary;                // german-vocab.txt: the German words by id, one a line
  MatrixT<float> word_vectors;           // (vectors.size(), vectors.dim()) the models' frozen X
  std::vector<SentencePair> eval_pairs;  // the first eval_count validation pairs

  // corpus: the folder of {train,validation,test}.bin and german-vocab.txt; vectors_path: the
  // word vectors' file. Throws std::runtime_error when a file cannot be read, or the splits index
  // other vocabularies than these.
  TranslationData(const std::string& corpus, const std::string& vectors_path, long eval_count)
      : vectors(read_vectors(vectors_path)),
        train(read_translation_split(corpus, "train", 0, vectors)),
        validation(read_translation_split(corpus, "validation", 1, vectors)),
        test(read_translation_split(corpus, "test", 2, vectors)),
        vocabulary(read_text(corpus + "/german-vocab.txt")),
        word_vectors(vectors.vocabulary_vectors().cast<float>()),
        eval_pairs(validation.pairs.begin(),
                   validation.pairs.begin() +
                       std::min<long>(eval_count, static_cast<long>(validation.pairs.size()))) {
    for (const TranslationPairs* split : {&train, &validation, &test}) {
      if (split->german_hash != fnv1a32(vocabulary)) {
        throw std::runtime_error("the splits do not index german-vocab.txt");
      }
    }
  }

 private:
  static Embeddings read_vectors(const std::string& path) {
    const std::vector<std::uint8_t> bytes = read_file(path);
    return Embeddings::parse(bytes.data(), bytes.size());
  }
  static std::string read_text(const std::string& path) {
    const std::vector<std::uint8_t> bytes = read_file(path);
    return std::string(bytes.begin(), bytes.end());
  }
};

// config with the vocabularies' sizes of the corpus and word vectors, and the weights' seed.
template <typename Config>
Config sized_for(Config config, const TranslationData& data, std::uint64_t seed) {
  config.source_words = data.vectors.size();
  config.source_width = data.vectors.dim();
  config.target_words = static_cast<int>(data.train.german_classes);
  config.seed = seed;
  return config;
}

// A step allocates and frees the same large matrices (the logits of a batch are tens of MB):
// keeping them on the heap instead of fresh mappings spares the kernel zeroing new pages.
inline void keep_large_blocks_on_heap() {
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
}

// One JSON line on stdout, whole, from any thread.
inline void print_line(const std::string& line) {
  static std::mutex output;
  const std::lock_guard<std::mutex> lock(output);
  std::fputs((line + "\n").c_str(), stdout);
  std::fflush(stdout);
}

// The number of values a model trains.
template <typename Model>
std::size_t parameter_count(Model& model) {
  std::size_t count = 0;
  for (auto* p : model.parameters()) count += static_cast<std::size_t>(p->value.size());
  return count;
}

// The line a model's training starts with.
inline std::string start_line(const std::string& model, std::size_t train_pairs,
                              std::size_t parameters, const TranslatorTrainingOptions& t) {
  return "{\"event\":\"start\",\"model\":\"" + model +
         "\",\"trainPairs\":" + std::to_string(train_pairs) +
         ",\"parameters\":" + std::to_string(parameters) + ",\"batch\":" + std::to_string(t.batch) +
         ",\"steps\":" + std::to_string(t.steps) + ",\"seed\":" + std::to_string(t.seed) + "}";
}

// The summary's training settings up to the dropout, as `"steps": ..., "dropout": ...`: each tool
// adds its own after them.
inline std::string schedule_summary(const TranslatorTrainingOptions& t) {
  return "\"steps\": " + std::to_string(t.steps) + ", \"batch\": " + std::to_string(t.batch) +
         ", \"learningRate\": " + formatted("%g", t.learning_rate) +
         ", \"warmup\": " + std::to_string(t.warmup) +
         ", \"finalLrFraction\": " + formatted("%g", t.final_lr_fraction) +
         ", \"clip\": " + formatted("%g", t.clip) + ", \"dropout\": " + formatted("%g", t.dropout);
}

// The wall and processor seconds of a run's held-out checks, so that a step's time is the step's
// alone.
struct HeldOutTime {
  double seconds = 0, cpu_seconds = 0;
};

// Trains `training`'s model from its seeded start on the core's training loop under `name`,
// printing its JSON lines, with a held-out check on eval_pairs (batches of 64) every
// flags.eval_every steps, and leaves it with the weights of the check of lowest loss. time, when
// given, adds up the checks' seconds.
template <typename Training>
TrainingRunResult train_translation_model(Training& training, const TranslationRunFlags& flags,
                                          const std::string& name,
                                          const std::vector<SentencePair>& eval_pairs,
                                          HeldOutTime* time = nullptr) {
  TrainingRunOptions run;
  run.model = name;
  run.log_every = flags.log_every;
  run.eval_every = flags.eval_every;
  run.keep_best = true;
  const auto held_out = [&] {
    const auto wall = std::chrono::steady_clock::now();
    const std::clock_t cpu = std::clock();
    const HeldOutLoss v = held_out_loss(training.model(), eval_pairs, 64);
    if (time) {
      time->seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
      time->cpu_seconds += static_cast<double>(std::clock() - cpu) / CLOCKS_PER_SEC;
    }
    return HeldOut{v.loss, v.tokens, ""};
  };
  return run_training(training.loop(), training, held_out, run, print_line);
}

// The summary's line of the weights file: its path and size.
inline std::string weights_summary(const std::string& path, std::size_t bytes) {
  return "  \"weights\": {\"file\": \"" + path + "\", \"bytes\": " + std::to_string(bytes) +
         ", \"storage\": \"int8 rows\"},\n";
}

// The summary's line of the training settings: the schedule's, `extra` (", \"name\": value"...),
// the seed and the training pairs.
inline std::string training_summary(const TranslatorTrainingOptions& t, std::size_t train_pairs,
                                    const std::string& extra = "") {
  return "  \"training\": {" + schedule_summary(t) + extra +
         ", \"seed\": " + std::to_string(t.seed) +
         ", \"trainPairs\": " + std::to_string(train_pairs) + "},\n";
}

// A model's last summary fields: the step whose weights it kept and the perplexities of the
// shipped (dequantised) model on the validation and test splits.
template <typename Model>
std::string shipped_summary(const Model& shipped, long kept_step, const TranslationData& data) {
  const HeldOutLoss v = held_out_loss(shipped, data.validation.pairs, 64);
  const HeldOutLoss t = held_out_loss(shipped, data.test.pairs, 64);
  return ", \"keptStep\": " + std::to_string(kept_step) +
         ", \"validationPerplexity\": " + formatted("%.3f", std::exp(v.loss)) +
         ", \"testPerplexity\": " + formatted("%.3f", std::exp(t.loss));
}

}  // namespace attn::tools

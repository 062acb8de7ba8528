// What `attn_train translation` and `attn_train transformer` share: the translation corpus and the
// page's word vectors read and checked against each other (docs/translation-corpus.md), the JSON
// lines they print and the training settings their summaries name.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "../files.hpp"
#include "attn/embeddings.hpp"
#include "attn/lm_weights.hpp"
#include "attn/translation_corpus.hpp"
#include "attn/translator_training.hpp"
#include "models.hpp"

namespace attn::tools {

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

}  // namespace attn::tools

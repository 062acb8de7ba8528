// Trains one of the page's two translation models natively on the translation corpus
// (docs/translation-corpus.md) and prints what it measures (docs/translation.md, "Training").
//
// Reads the corpus splits (build/corpus/translation/{train,validation,test}.bin) and the page's
// word vectors (docs/embeddings.md), checking that the corpus indexes those very vectors. Prints
// JSON lines: {"step","loss","gradNorm","lr","tokens","seconds"} every --log-every steps, and
// {"step","validationLoss","validationPerplexity"} every --eval-every steps on the first
// --eval-pairs validation pairs. With --translations FILE it writes, for every test pair, the
// greedy translation's German ids and its attention weights as JSON lines, for
// tools/translation/evaluate.js to score.
//
// Usage: attn_train_translation [--bridge attention|fixed-vector] [--steps N] [--seed N]
//          [--batch N] [--lr X] [--warmup N] [--final-lr-fraction X] [--clip X]
//          [--log-every N] [--eval-every N] [--eval-pairs N] [--corpus DIR] [--vectors FILE]
//          [--translations FILE]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <malloc.h>
#include <stdexcept>
#include <string>
#include <vector>

#include "attn/embeddings.hpp"
#include "attn/lm_weights.hpp"
#include "attn/translation_corpus.hpp"
#include "attn/translator.hpp"
#include "attn/translator_training.hpp"

namespace {

struct Options {
  attn::Bridge bridge = attn::Bridge::attention;
  attn::TranslatorTrainingOptions training;
  long log_every = 10;
  long eval_every = 500;
  int eval_pairs = 1000;
  std::string corpus = "build/corpus/translation";
  std::string vectors = "web/public/embeddings/en-20k-100d.bin";
  std::string translations;
};

[[noreturn]] void usage(const std::string& message) {
  std::fprintf(stderr,
               "attn_train_translation: %s\nusage: attn_train_translation "
               "[--bridge attention|fixed-vector] [--steps N] [--seed N] [--batch N] [--lr X] "
               "[--warmup N] [--final-lr-fraction X] [--clip X] [--log-every N] "
               "[--eval-every N] [--eval-pairs N] [--corpus DIR] [--vectors FILE] "
               "[--translations FILE]\n",
               message.c_str());
  std::exit(2);
}

double number(const std::string& flag, const char* text) {
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (end == text || *end != '\0' || !std::isfinite(value)) {
    usage(flag + " needs a number, got '" + text + "'");
  }
  return value;
}

long whole(const std::string& flag, const char* text) {
  const double value = number(flag, text);
  if (!(std::fabs(value) < 1e15) || value != std::floor(value)) {
    usage(flag + " needs a whole number, got '" + text + "'");
  }
  return static_cast<long>(value);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; i += 2) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) usage(flag + " needs a value");
    const char* v = argv[i + 1];
    if (flag == "--bridge") {
      const std::string b = v;
      if (b != "attention" && b != "fixed-vector") usage("--bridge is attention or fixed-vector");
      o.bridge = b == "attention" ? attn::Bridge::attention : attn::Bridge::fixed_vector;
    } else if (flag == "--steps") {
      o.training.steps = whole(flag, v);
    } else if (flag == "--seed") {
      const long s = whole(flag, v);
      if (s < 0) usage("--seed must be >= 0");
      o.training.seed = static_cast<std::uint64_t>(s);
    } else if (flag == "--batch") {
      o.training.batch = static_cast<int>(whole(flag, v));
    } else if (flag == "--lr") {
      o.training.learning_rate = number(flag, v);
    } else if (flag == "--warmup") {
      o.training.warmup = whole(flag, v);
    } else if (flag == "--final-lr-fraction") {
      o.training.final_lr_fraction = number(flag, v);
    } else if (flag == "--clip") {
      o.training.clip = number(flag, v);
    } else if (flag == "--log-every") {
      o.log_every = whole(flag, v);
    } else if (flag == "--eval-every") {
      o.eval_every = whole(flag, v);
    } else if (flag == "--eval-pairs") {
      o.eval_pairs = static_cast<int>(whole(flag, v));
    } else if (flag == "--corpus") {
      o.corpus = v;
    } else if (flag == "--vectors") {
      o.vectors = v;
    } else if (flag == "--translations") {
      o.translations = v;
    } else {
      usage("unknown flag " + flag);
    }
  }
  if (o.log_every < 1) usage("--log-every must be >= 1");
  if (o.eval_every < 0) usage("--eval-every must be >= 0");
  if (o.eval_pairs < 1) usage("--eval-pairs must be >= 1");
  return o;
}

std::vector<std::uint8_t> read_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open " + path);
  std::vector<std::uint8_t> bytes;
  std::uint8_t buffer[1 << 16];
  std::size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, f)) > 0) {
    bytes.insert(bytes.end(), buffer, buffer + got);
  }
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) throw std::runtime_error("cannot read " + path);
  return bytes;
}

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

void write_translations(const std::string& path, const attn::Translator<float>& model,
                        const std::vector<attn::SentencePair>& pairs) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot write " + path);
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const int longest = std::min(attn::kMaxTranslationLength - 1,
                                 2 * static_cast<int>(pairs[i].english.size()) + 10);
    const attn::Translation t = model.translate(pairs[i].english, longest);
    std::fprintf(f, "{\"pair\":%zu,\"words\":[", i);
    for (std::size_t w = 0; w < t.words.size(); ++w) std::fprintf(f, w ? ",%d" : "%d", t.words[w]);
    std::fprintf(f, "],\"weights\":[");
    for (Eigen::Index k = 0; k < t.weights.size(); ++k) {
      std::fprintf(f, k ? ",%.4g" : "%.4g", static_cast<double>(t.weights.data()[k]));
    }
    std::fprintf(f, "]}\n");
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
    const auto started = std::chrono::steady_clock::now();
    const auto seconds = [&] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    };
    const std::vector<std::uint8_t> vector_bytes = read_file(o.vectors);
    const attn::Embeddings vectors =
        attn::Embeddings::parse(vector_bytes.data(), vector_bytes.size());
    const attn::TranslationPairs train = read_pairs(o.corpus, "train", 0, vectors);
    const attn::TranslationPairs validation = read_pairs(o.corpus, "validation", 1, vectors);
    const attn::TranslationPairs test = read_pairs(o.corpus, "test", 2, vectors);
    if (validation.german_hash != train.german_hash || test.german_hash != train.german_hash) {
      throw std::runtime_error("the splits index different German vocabularies");
    }

    attn::TranslatorConfig config;
    config.bridge = o.bridge;
    config.source_words = vectors.size();
    config.source_width = vectors.dim();
    config.target_words = static_cast<int>(train.german_classes);
    config.seed = o.training.seed;
    attn::TranslatorTraining training(config, vectors.vocabulary_vectors().cast<float>(),
                                      train.pairs, o.training);
    const std::vector<attn::SentencePair> eval_pairs(
        validation.pairs.begin(),
        validation.pairs.begin() +
            std::min<long>(o.eval_pairs, static_cast<long>(validation.pairs.size())));
    std::size_t parameters = 0;
    for (auto* p : training.model().parameters())
      parameters += static_cast<std::size_t>(p->value.size());
    std::printf(
        "{\"event\":\"start\",\"bridge\":\"%s\",\"trainPairs\":%zu,\"parameters\":%zu,"
        "\"batch\":%d,\"steps\":%ld,\"seed\":%llu}\n",
        attn::bridge_name(o.bridge), train.pairs.size(), parameters, o.training.batch,
        o.training.steps, static_cast<unsigned long long>(o.training.seed));
    std::fflush(stdout);

    long tokens = 0;
    double loss_sum = 0;
    long loss_count = 0;
    for (long step = 1; step <= o.training.steps; ++step) {
      const attn::TranslatorTraining::Step s = training.step();
      tokens += s.tokens;
      loss_sum += static_cast<double>(s.loss);
      ++loss_count;
      if (step % o.log_every == 0 || step == o.training.steps) {
        std::printf(
            "{\"step\":%ld,\"epoch\":%ld,\"loss\":%.5f,\"gradNorm\":%.4g,\"lr\":%.5g,"
            "\"tokens\":%ld,\"seconds\":%.1f}\n",
            step, training.epochs_started(), loss_sum / static_cast<double>(loss_count),
            static_cast<double>(s.gradient_norm), s.learning_rate, tokens, seconds());
        loss_sum = 0;
        loss_count = 0;
      }
      if (o.eval_every > 0 && (step % o.eval_every == 0 || step == o.training.steps)) {
        const attn::HeldOutLoss v = attn::held_out_loss(training.model(), eval_pairs, 64);
        std::printf(
            "{\"step\":%ld,\"validationLoss\":%.5f,\"validationPerplexity\":%.3f,"
            "\"seconds\":%.1f}\n",
            step, v.loss, std::exp(v.loss), seconds());
      }
      std::fflush(stdout);
    }
    if (!o.translations.empty()) write_translations(o.translations, training.model(), test.pairs);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "attn_train_translation: %s\n", e.what());
    return 1;
  }
}

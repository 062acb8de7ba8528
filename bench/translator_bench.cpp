// Native benchmark of the page's two translation models (docs/translation.md): the latency of
// translating a fixed 20-word English sentence with each model of
// web/public/models/translation.bin, and the training speed of attn::TranslatorTraining at the
// committed settings (batches of 64 pairs of the translation corpus, both models' shapes) in tokens
// per second.
//
// Translation: the sentence's 21 tokens (20 words and the full stop, as the page's tokenizer gives
// them) are translated greedily with the page's word limit, min(127, 2 n + 10), by each model
// held as the page holds it (a FrozenTranslator); one warm-up call, then `runs` calls; median and
// p90 of wall time. Training: one warm-up step, then `steps` steps from the seeded start (default
// 5) on the corpus's batches; the tokens they read (English and German with </s>) over their wall
// and processor time. Training needs the corpus (npm run corpus:translation); without it the
// training rows are skipped and say so. Output: one JSON object per line, each
// naming its model: {"bench": "translate", ...} and {"bench": "train", ...}.
// Usage: attn_translator_bench [STEPS] [RUNS] (defaults 5 and 200); paths are relative to the
// repository root, where npm run bench runs it.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../tools/files.hpp"
#include "attn/embeddings.hpp"
#include "attn/lm_weights.hpp"
#include "attn/translation_corpus.hpp"
#include "attn/translator.hpp"
#include "attn/translator_training.hpp"
#include "attn/translator_weights.hpp"

namespace {

using attn::tools::read_file;
using Clock = std::chrono::steady_clock;

constexpr const char* kVectors = "web/public/embeddings/en-20k-100d.bin";
constexpr const char* kModels = "web/public/models/translation.bin";
constexpr const char* kTrain = "build/corpus/translation/train.bin";

// bench/run.js translates the same sentence in wasm (TRANSLATION_SENTENCE there).
const std::vector<std::string> kSentence{
    "the", "old", "man",     "said",    "that", "he",   "would", "open", "the",  "small", "window",
    "in",  "the", "kitchen", "because", "the",  "room", "was",   "too",  "warm", "."};

// This thread's processor time in seconds: unlike wall time, it does not count the time other
// processes on a shared machine take from it.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double at_rank(std::vector<double> v, double share) {
  std::sort(v.begin(), v.end());
  const auto i = static_cast<std::size_t>(share * static_cast<double>(v.size() - 1) + 0.5);
  return v[i];
}

}  // namespace

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 5;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 200;
  if (argc > 3 || steps < 1 || runs < 1) {
    std::fprintf(stderr, "usage: %s [STEPS >= 1] [RUNS >= 1]\n", argv[0]);
    return 2;
  }
  try {
    const std::vector<std::uint8_t> vector_bytes = read_file(kVectors);
    const attn::Embeddings vectors =
        attn::Embeddings::parse(vector_bytes.data(), vector_bytes.size());
    const std::vector<std::uint8_t> model_bytes = read_file(kModels);
    const attn::TranslatorWeights weights =
        attn::parse_translators(model_bytes.data(), model_bytes.size());
    const auto word_vectors =
        std::make_shared<const attn::MatrixT<float>>(vectors.vocabulary_vectors());
    const std::vector<int> ids = attn::language_model_ids(vectors, kSentence);
    const int max_words =
        std::min(attn::kMaxTranslationLength - 1, 2 * static_cast<int>(ids.size()) + 10);

    for (const attn::Bridge bridge : {attn::Bridge::attention, attn::Bridge::fixed_vector}) {
      // As the page holds them (wasm/translator.cpp).
      const attn::FrozenTranslator<float> model(
          attn::make_translator(weights, bridge, word_vectors));
      attn::Translation out = model.translate(ids, max_words);
      std::vector<double> ms;
      for (int i = 0; i < runs; ++i) {
        const auto start = Clock::now();
        out = model.translate(ids, max_words);
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
      }
      std::printf(
          "{\"bench\": \"translate\", \"model\": \"%s\", \"tokens\": %zu, \"words\": %zu, "
          "\"runs\": %d, \"medianMs\": %.3f, \"p90Ms\": %.3f}\n",
          attn::bridge_name(bridge), ids.size(), out.words.size(), runs, at_rank(ms, 0.5),
          at_rank(ms, 0.9));
      std::fflush(stdout);
    }

    std::FILE* corpus = std::fopen(kTrain, "rb");
    if (!corpus) {
      std::printf("{\"bench\": \"train\", \"skipped\": \"no %s (npm run corpus:translation)\"}\n",
                  kTrain);
      return 0;
    }
    std::fclose(corpus);
    const std::vector<std::uint8_t> train_bytes = read_file(kTrain);
    const attn::TranslationPairs train =
        attn::parse_translation_pairs(train_bytes.data(), train_bytes.size());
    for (const attn::Bridge bridge : {attn::Bridge::attention, attn::Bridge::fixed_vector}) {
      attn::TranslatorConfig config = weights.config;
      config.bridge = bridge;
      config.seed = 1;
      attn::TranslatorTrainingOptions options;  // batches of 64, as the committed training
      attn::TranslatorTraining training(config, *word_vectors, train.pairs, options);
      training.step();
      // Batches differ in length, so the rate is the steps' tokens over their summed time.
      double tokens = 0;
      const auto start = Clock::now();
      const double cpu_start = cpu_seconds();
      for (int i = 0; i < steps; ++i) tokens += training.step().tokens;
      const double cpu = cpu_seconds() - cpu_start;
      const double wall = std::chrono::duration<double>(Clock::now() - start).count();
      std::printf(
          "{\"bench\": \"train\", \"model\": \"%s\", \"batch\": %d, \"steps\": %d, "
          "\"tokensPerStep\": %.0f, \"msPerStep\": %.1f, \"tokensPerSecond\": %.0f, "
          "\"tokensPerCpuSecond\": %.0f}\n",
          attn::bridge_name(bridge), options.batch, steps, tokens / steps, wall * 1e3 / steps,
          tokens / wall, tokens / cpu);
      std::fflush(stdout);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "attn_translator_bench: %s\n", e.what());
    return 1;
  }
}

// attn_train language-model: trains the page's language model natively on the Brown Corpus and
// writes its weights and a report of what was measured on them (docs/language-model.md,
// "Training it").
//
// Reads the corpus splits (build/corpus/brown-{train,validation,test}.bin, docs/corpus.md) and the
// page's word vectors (docs/embeddings.md). The frozen E has one row per vocabulary word (its
// dequantised vector) and one more for the unknown-word id: Embeddings::fallback("<unk>"), a
// random direction of typical length (no token of the page's tokenizer is "<unk>").
//
// Each step draws a batch from its own seeded stream: (1 - repeat fraction) of it random windows
// of context + 1 tokens inside one train sample (every start equally likely), the rest random
// runs of L distinct words (L uniform in [kMinRun, kMaxRun]) repeated to fill the window, whose
// first copy's targets are ignored (random words cannot be predicted; their repetition can).
// Adam, global norm clipped, learning rate warmed up linearly then decayed on a cosine to
// --final-lr-fraction of its peak, on the core's training loop (attn/training_loop.hpp). Prints
// JSON lines: {"step","loss","gradNorm","lr",...} every step and {"step","validationLoss",
// "validationPerplexity",...} every --eval-every steps on the first --eval-samples validation
// samples. At the end the weights go through the float16 file and back, and
// everything in the report is measured on that dequantised model.
//
// Flags: [--steps N] [--seed N] [--batch N] [--lr X] [--warmup N] [--final-lr-fraction X]
//        [--clip X] [--repeat-fraction X] [--position-scale X] [--eval-every N]
//        [--eval-samples N] [--corpus DIR] [--vectors FILE] [--out FILE] [--report FILE]
//        [--measure WEIGHTS]
// --measure WEIGHTS: no training; the report is measured on that weights file (its "training" is
// null), so a test can recompute the committed report from the committed weights.
#include "attn/language_model.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../command_line.hpp"
#include "../files.hpp"
#include "attn/corpus.hpp"
#include "attn/embeddings.hpp"
#include "attn/lm_analysis.hpp"
#include "attn/lm_training.hpp"
#include "attn/lm_weights.hpp"
#include "attn/random.hpp"
#include "attn/reversal_task.hpp"
#include "attn/training_loop.hpp"
#include "models.hpp"

namespace attn::tools {
namespace {

constexpr int kContext = 64, kDModel = 128, kLayers = 2, kHeads = 4, kDMlp = 512;
constexpr int kMinRun = 5, kMaxRun = 32;
constexpr int kCopyLength = kContext / 2;  // induction sequences: 32 words, then again
constexpr int kInductionSequences = 100;
constexpr std::uint64_t kInductionStream = 2000;

// The committed settings (npm run train:lm uses these defaults).
LanguageModelTrainingOptions committed_training() {
  LanguageModelTrainingOptions t;
  t.steps = 2500;
  t.seed = 1;
  t.batch = 32;
  t.learning_rate = 3e-3;
  t.warmup = 100;
  t.final_lr_fraction = 0.1;
  t.clip = 1.0;
  t.repeat_fraction = 0.15;
  t.min_run = kMinRun;
  t.max_run = kMaxRun;
  return t;
}

struct Options {
  LanguageModelTrainingOptions training = committed_training();
  double position_scale = 1.0;
  long eval_every = 250;
  int eval_samples = 10;
  std::string corpus = "build/corpus";
  std::string vectors = "web/public/embeddings/en-20k-100d.bin";
  std::string out = "web/public/models/brown-lm.bin";
  std::string report = "web/public/models/brown-lm.json";
  std::string measure;  // a weights file to measure instead of training
};

Options parse(int argc, char** argv) {
  Options o;
  LanguageModelTrainingOptions& t = o.training;
  CommandLine line("attn_train language-model");
  line.schedule(t.steps, t.seed, t.batch, t.learning_rate, t.warmup, t.final_lr_fraction, t.clip)
      .number("--repeat-fraction", t.repeat_fraction)
      .number("--position-scale", o.position_scale)
      .whole("--eval-every", o.eval_every)
      .whole("--eval-samples", o.eval_samples)
      .text("--corpus", "DIR", o.corpus)
      .text("--vectors", "FILE", o.vectors)
      .text("--out", "FILE", o.out)
      .text("--report", "FILE", o.report)
      .text("--measure", "WEIGHTS", o.measure)
      .parse(argc, argv);
  // The vocabulary is read later; the repeated runs need kMaxRun words of it at most.
  line.check([&] { check_training_options(t, kContext, kMaxRun); });
  if (!(o.position_scale >= 0 && o.position_scale <= 10)) {
    line.usage("--position-scale must be in [0, 10]");
  }
  if (o.eval_every < 0) line.usage("--eval-every must be >= 0");
  if (o.eval_samples < 1) line.usage("--eval-samples must be >= 1");
  return o;
}

Corpus read_corpus(const std::string& dir, const char* split, std::uint32_t expected_split,
                   const Embeddings& embeddings, std::uint32_t vocab_hash) {
  const std::string path = dir + "/brown-" + split + ".bin";
  const std::vector<std::uint8_t> bytes = read_file(path);
  Corpus c = parse_corpus(bytes.data(), bytes.size());
  if (c.split != expected_split) throw std::runtime_error(path + " holds another split");
  if (c.vocab_hash != vocab_hash) {
    throw std::runtime_error(path + " indexes another vocabulary than the word vectors'");
  }
  if (c.classes != static_cast<std::uint32_t>(embeddings.size()) + 1 ||
      c.unknown_id != static_cast<std::uint32_t>(embeddings.size())) {
    throw std::runtime_error(path + ": expected the vocabulary's words plus one unknown id");
  }
  return c;
}

std::string perplexity_json(const Perplexity& p) {
  return "{\"perplexity\":" + formatted("%.4f", p.perplexity) +
         ",\"meanNll\":" + formatted("%.6f", p.mean_nll) +
         ",\"tokens\":" + std::to_string(p.tokens) + ",\"windows\":" + std::to_string(p.windows) +
         "}";
}

// Trains `training`'s model from its seeded start as the options say, printing a JSON line per
// step.
void train_model(LanguageModelTraining& training, const Options& o, const Corpus& train,
                 const Corpus& validation) {
  const std::vector<std::vector<int>> eval_samples(
      validation.samples.begin(),
      validation.samples.begin() +
          std::min<long>(o.eval_samples, static_cast<long>(validation.samples.size())));
  std::printf(
      "{\"event\":\"start\",\"trainTokens\":%zu,\"parameters\":%zu,\"batch\":%d,"
      "\"repeatedPerBatch\":%d,\"steps\":%ld,\"seed\":%llu}\n",
      train.tokens(), language_model_parameter_count(training.model().config()), o.training.batch,
      repeated_rows_per_batch(training.options()), o.training.steps,
      static_cast<unsigned long long>(o.training.seed));
  TrainingRunOptions run;
  run.eval_every = o.eval_every;
  const auto held_out = [&] {
    const Perplexity p = held_out_perplexity(training.model(), eval_samples);
    return HeldOut{p.mean_nll, p.tokens, ""};
  };
  run_training(training.loop(), training, held_out, run, [](const std::string& line) {
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
  });
}

}  // namespace

int train_language_model(int argc, char** argv) {
  const Options o = parse(argc, argv);
  try {
    const auto started = std::chrono::steady_clock::now();
    const auto seconds = [&] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    };
    const std::vector<std::uint8_t> vector_bytes = read_file(o.vectors);
    const Embeddings embeddings = Embeddings::parse(vector_bytes.data(), vector_bytes.size());
    const std::uint32_t vocab_hash = vocabulary_hash(embeddings);
    const Corpus train = read_corpus(o.corpus, "train", 0, embeddings, vocab_hash);
    const Corpus validation = read_corpus(o.corpus, "validation", 1, embeddings, vocab_hash);
    const Corpus test = read_corpus(o.corpus, "test", 2, embeddings, vocab_hash);

    const int words = embeddings.size();
    const MatrixT<float> e = language_model_word_vectors(embeddings);

    LanguageModelConfig config;
    config.vocab = words + 1;
    config.d_embed = embeddings.dim();
    config.d_model = kDModel;
    config.layers = kLayers;
    config.heads = kHeads;
    config.d_mlp = kDMlp;
    config.context = kContext;
    config.seed = o.training.seed;
    config.position_scale = static_cast<float>(o.position_scale);
    std::vector<std::uint8_t> file;
    std::unique_ptr<LanguageModelTraining> training;
    if (o.measure.empty()) {
      training = std::make_unique<LanguageModelTraining>(config, e, train.samples, o.training);
      train_model(*training, o, train, validation);
      file = encode_language_model(training->model(), vocab_hash);
      write_file(o.out, file);
    } else {
      file = read_file(o.measure);
    }
    // What the page ships: the float16 file, read back.
    const LanguageModelWeights weights = parse_language_model_weights(file.data(), file.size());
    LanguageModel<float> shipped(config, e);
    load_language_model_weights(shipped, weights);

    const Perplexity validation_p = held_out_perplexity(shipped, validation.samples);
    const Perplexity float_validation =
        training ? held_out_perplexity(training->model(), validation.samples) : validation_p;
    const Perplexity test_p = held_out_perplexity(shipped, test.samples);
    std::vector<std::vector<int>> text;  // the first window of every validation sample
    for (const auto& s : validation.samples) {
      text.emplace_back(s.begin(),
                        s.begin() + std::min<long>(kContext, static_cast<long>(s.size())));
    }
    Rng induction_rng(derive_seed(o.training.seed, kInductionStream));
    std::vector<std::vector<int>> repeated;
    for (int i = 0; i < kInductionSequences; ++i) {
      repeated.push_back(repeated_random_sequence(induction_rng, kCopyLength, 0, words));
    }
    const std::vector<HeadScores> heads = measure_heads(shipped, text, repeated, kCopyLength);

    std::string r = "{\n";
    r += "  \"format\": \"attn-lm-report\",\n";
    r += "  \"weights\": {\"file\": \"" + (o.measure.empty() ? o.out : o.measure) +
         "\", \"bytes\": " + std::to_string(file.size()) + ", \"storage\": \"float16\"},\n";
    r += "  \"config\": {\"vocab\": " + std::to_string(config.vocab) +
         ", \"dEmbed\": " + std::to_string(config.d_embed) +
         ", \"dModel\": " + std::to_string(kDModel) + ", \"layers\": " + std::to_string(kLayers) +
         ", \"heads\": " + std::to_string(kHeads) + ", \"dMlp\": " + std::to_string(kDMlp) +
         ", \"context\": " + std::to_string(kContext) +
         ", \"parameters\": " + std::to_string(language_model_parameter_count(config)) +
         ", \"unknownRow\": \"fallback(<unk>)\"},\n";
    const int repeated_rows = repeated_rows_per_batch(o.training);
    if (o.measure.empty()) {
      const LanguageModelTrainingOptions& t = o.training;
      r += "  \"training\": {\"steps\": " + std::to_string(t.steps) +
           ", \"seed\": " + std::to_string(t.seed) + ", \"batch\": " + std::to_string(t.batch) +
           ", \"repeatedPerBatch\": " + std::to_string(repeated_rows) + ", \"repeatedRun\": [" +
           std::to_string(kMinRun) + ", " + std::to_string(kMaxRun) +
           "], \"lr\": " + formatted("%.6g", t.learning_rate) +
           ", \"warmup\": " + std::to_string(t.warmup) +
           ", \"finalLrFraction\": " + formatted("%.6g", t.final_lr_fraction) +
           ", \"clip\": " + formatted("%.6g", t.clip) +
           ", \"positionScale\": " + formatted("%.6g", o.position_scale) +
           ", \"trainTokens\": " + std::to_string(train.tokens()) + "},\n";
    } else {
      r += "  \"training\": null,\n";
    }
    r += "  \"validation\": " + perplexity_json(validation_p) + ",\n";
    r += "  \"test\": " + perplexity_json(test_p) + ",\n";
    r += "  \"validationBeforeFloat16\": " + perplexity_json(float_validation) + ",\n";
    r += "  \"headMeasurement\": {\"textSequences\": " + std::to_string(text.size()) +
         ", \"inductionSequences\": " + std::to_string(kInductionSequences) +
         ", \"copyLength\": " + std::to_string(kCopyLength) +
         ", \"inductionThreshold\": " + formatted("%.2f", kInductionThreshold) +
         ", \"patternThreshold\": " + formatted("%.2f", kPatternThreshold) + "},\n";
    r += "  \"heads\": [\n";
    for (std::size_t i = 0; i < heads.size(); ++i) {
      const HeadScores& h = heads[i];
      r += "    {\"layer\": " + std::to_string(h.layer) + ", \"head\": " + std::to_string(h.head) +
           ", \"previousToken\": " + formatted("%.4f", h.pattern.previous_token) +
           ", \"firstToken\": " + formatted("%.4f", h.pattern.first_token) +
           ", \"self\": " + formatted("%.4f", h.pattern.self) +
           ", \"induction\": " + formatted("%.4f", h.induction) + ", \"kind\": \"" + h.kind +
           "\"}" + (i + 1 < heads.size() ? ",\n" : "\n");
    }
    r += "  ]";
    const std::string baselines_path = o.corpus + "/baselines.json";
    if (std::FILE* f = std::fopen(baselines_path.c_str(), "rb")) {
      std::fclose(f);
      const std::vector<std::uint8_t> b = read_file(baselines_path);
      std::string text_b(b.begin(), b.end());
      while (!text_b.empty() && (text_b.back() == '\n' || text_b.back() == ' ')) text_b.pop_back();
      r += ",\n  \"baselines\": " + text_b;
    }
    r += "\n}\n";
    write_file(o.report, r);
    std::printf(
        "{\"event\":\"done\",\"validationPerplexity\":%.4f,\"testPerplexity\":%.4f,"
        "\"validationPerplexityFloat32\":%.4f,\"bytes\":%zu,\"seconds\":%.1f}\n",
        validation_p.perplexity, test_p.perplexity, float_validation.perplexity, file.size(),
        seconds());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "attn_train language-model: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace attn::tools

// Trains the page's language model natively on the Brown Corpus and writes its weights and a
// report of what was measured on them (docs/language-model.md, "Training it").
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
// --final-lr-fraction of its peak. Prints JSON lines: {"step","loss","lr","seconds"} every step
// and {"step","validationPerplexity",...} every --eval-every steps on the first --eval-samples
// validation samples. At the end the weights go through the float16 file and back, and
// everything in the report is measured on that dequantised model.
//
// Usage: attn_train_lm [--steps N] [--seed N] [--batch N] [--lr X] [--warmup N]
//                      [--final-lr-fraction X] [--clip X] [--repeat-fraction X]
//                      [--position-scale X]
//                      [--eval-every N] [--eval-samples N] [--corpus DIR] [--vectors FILE]
//                      [--out FILE] [--report FILE] [--measure WEIGHTS]
// --measure WEIGHTS: no training; the report is measured on that weights file (its "training" is
// null), so a test can recompute the committed report from the committed weights.
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

#include "attn/corpus.hpp"
#include "attn/embeddings.hpp"
#include "attn/language_model.hpp"
#include "attn/lm_analysis.hpp"
#include "attn/lm_training.hpp"
#include "attn/lm_weights.hpp"
#include "attn/random.hpp"
#include "attn/reversal_task.hpp"
#include "command_line.hpp"
#include "files.hpp"

namespace {

// The committed settings (npm run train:lm uses these defaults).
struct Options {
  long steps = 2500;
  std::uint64_t seed = 1;
  int batch = 32;
  double lr = 3e-3;
  long warmup = 100;
  double final_lr_fraction = 0.1;
  double clip = 1.0;
  double repeat_fraction = 0.15;
  double position_scale = 1.0;
  long eval_every = 250;
  int eval_samples = 10;
  std::string corpus = "build/corpus";
  std::string vectors = "web/public/embeddings/en-20k-100d.bin";
  std::string out = "web/public/models/brown-lm.bin";
  std::string report = "web/public/models/brown-lm.json";
  std::string measure;  // a weights file to measure instead of training
};

constexpr int kContext = 64, kDModel = 128, kLayers = 2, kHeads = 4, kDMlp = 512;
constexpr int kMinRun = 5, kMaxRun = 32;
constexpr int kCopyLength = kContext / 2;  // induction sequences: 32 words, then again
constexpr int kInductionSequences = 100;
constexpr std::uint64_t kInductionStream = 2000;

Options parse(int argc, char** argv) {
  Options o;
  attn::tools::CommandLine line("attn_train_lm");
  line.schedule(o.steps, o.seed, o.batch, o.lr, o.warmup, o.final_lr_fraction, o.clip)
      .number("--repeat-fraction", o.repeat_fraction)
      .number("--position-scale", o.position_scale)
      .whole("--eval-every", o.eval_every)
      .whole("--eval-samples", o.eval_samples)
      .text("--corpus", "DIR", o.corpus)
      .text("--vectors", "FILE", o.vectors)
      .text("--out", "FILE", o.out)
      .text("--report", "FILE", o.report)
      .text("--measure", "WEIGHTS", o.measure)
      .parse(argc, argv);
  if (o.steps < 1 || o.steps > 1000000) line.usage("--steps must be from 1 to 1000000");
  if (o.batch < 1 || o.batch > 4096) line.usage("--batch must be from 1 to 4096");
  if (!(o.lr > 0)) line.usage("--lr must be > 0");
  if (o.warmup < 0) line.usage("--warmup must be >= 0");
  if (!(o.final_lr_fraction > 0 && o.final_lr_fraction <= 1)) {
    line.usage("--final-lr-fraction must be in (0, 1]");
  }
  if (!(o.clip >= 0)) line.usage("--clip must be >= 0");
  if (!(o.repeat_fraction >= 0 && o.repeat_fraction <= 1)) {
    line.usage("--repeat-fraction must be in [0, 1]");
  }
  if (!(o.position_scale >= 0 && o.position_scale <= 10)) {
    line.usage("--position-scale must be in [0, 10]");
  }
  if (o.eval_every < 0) line.usage("--eval-every must be >= 0");
  if (o.eval_samples < 1) line.usage("--eval-samples must be >= 1");
  return o;
}

using attn::tools::read_file;
using attn::tools::write_file;

attn::Corpus read_corpus(const std::string& dir, const char* split, std::uint32_t expected_split,
                         const attn::Embeddings& embeddings, std::uint32_t vocab_hash) {
  const std::string path = dir + "/brown-" + split + ".bin";
  const std::vector<std::uint8_t> bytes = read_file(path);
  attn::Corpus c = attn::parse_corpus(bytes.data(), bytes.size());
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

// The training settings these options give.
attn::LanguageModelTrainingOptions training_options(const Options& o) {
  attn::LanguageModelTrainingOptions t;
  t.steps = o.steps;
  t.batch = o.batch;
  t.learning_rate = o.lr;
  t.warmup = o.warmup;
  t.final_lr_fraction = o.final_lr_fraction;
  t.clip = o.clip;
  t.repeat_fraction = o.repeat_fraction;
  t.min_run = kMinRun;
  t.max_run = kMaxRun;
  t.seed = o.seed;
  return t;
}

std::string fmt(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::string perplexity_json(const attn::Perplexity& p) {
  return "{\"perplexity\":" + fmt("%.4f", p.perplexity) +
         ",\"meanNll\":" + fmt("%.6f", p.mean_nll) + ",\"tokens\":" + std::to_string(p.tokens) +
         ",\"windows\":" + std::to_string(p.windows) + "}";
}

// Trains `training`'s model from its seeded start as the options say, printing a JSON line per
// step.
void train_model(attn::LanguageModelTraining& training, const Options& o, const attn::Corpus& train,
                 const attn::Corpus& validation, const std::function<double()>& seconds) {
  const std::vector<std::vector<int>> eval_samples(
      validation.samples.begin(),
      validation.samples.begin() +
          std::min<long>(o.eval_samples, static_cast<long>(validation.samples.size())));
  std::printf(
      "{\"event\":\"start\",\"trainTokens\":%zu,\"parameters\":%zu,\"batch\":%d,"
      "\"repeatedPerBatch\":%d,\"steps\":%ld,\"seed\":%llu}\n",
      train.tokens(), attn::language_model_parameter_count(training.model().config()), o.batch,
      attn::repeated_rows_per_batch(training.options()), o.steps,
      static_cast<unsigned long long>(o.seed));
  std::fflush(stdout);

  for (long step = 1; step <= o.steps; ++step) {
    const attn::LanguageModelTraining::Step s = training.step();
    std::printf("{\"step\":%ld,\"loss\":%.9g,\"gradNorm\":%.6g,\"lr\":%.6g,\"seconds\":%.1f}\n",
                step, static_cast<double>(s.loss), static_cast<double>(s.gradient_norm),
                s.learning_rate, seconds());
    if (o.eval_every > 0 && (step % o.eval_every == 0 || step == o.steps)) {
      const attn::Perplexity p = attn::held_out_perplexity(training.model(), eval_samples);
      std::printf("{\"step\":%ld,\"validationPerplexity\":%.4f,\"tokens\":%ld,\"seconds\":%.1f}\n",
                  step, p.perplexity, p.tokens, seconds());
    }
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  try {
    const auto started = std::chrono::steady_clock::now();
    const auto seconds = [&] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    };
    const std::vector<std::uint8_t> vector_bytes = read_file(o.vectors);
    const attn::Embeddings embeddings =
        attn::Embeddings::parse(vector_bytes.data(), vector_bytes.size());
    const std::uint32_t vocab_hash = attn::vocabulary_hash(embeddings);
    const attn::Corpus train = read_corpus(o.corpus, "train", 0, embeddings, vocab_hash);
    const attn::Corpus validation = read_corpus(o.corpus, "validation", 1, embeddings, vocab_hash);
    const attn::Corpus test = read_corpus(o.corpus, "test", 2, embeddings, vocab_hash);

    const int words = embeddings.size();
    const attn::MatrixT<float> e = attn::language_model_word_vectors(embeddings);

    attn::LanguageModelConfig config;
    config.vocab = words + 1;
    config.d_embed = embeddings.dim();
    config.d_model = kDModel;
    config.layers = kLayers;
    config.heads = kHeads;
    config.d_mlp = kDMlp;
    config.context = kContext;
    config.seed = o.seed;
    config.position_scale = static_cast<float>(o.position_scale);
    std::vector<std::uint8_t> file;
    std::unique_ptr<attn::LanguageModelTraining> training;
    if (o.measure.empty()) {
      training = std::make_unique<attn::LanguageModelTraining>(config, e, train.samples,
                                                               training_options(o));
      train_model(*training, o, train, validation, seconds);
      file = attn::encode_language_model(training->model(), vocab_hash);
      write_file(o.out, file);
    } else {
      file = read_file(o.measure);
    }
    // What the page ships: the float16 file, read back.
    const attn::LanguageModelWeights weights =
        attn::parse_language_model_weights(file.data(), file.size());
    attn::LanguageModel<float> shipped(config, e);
    attn::load_language_model_weights(shipped, weights);

    const attn::Perplexity validation_p = attn::held_out_perplexity(shipped, validation.samples);
    const attn::Perplexity float_validation =
        training ? attn::held_out_perplexity(training->model(), validation.samples) : validation_p;
    const attn::Perplexity test_p = attn::held_out_perplexity(shipped, test.samples);
    std::vector<std::vector<int>> text;  // the first window of every validation sample
    for (const auto& s : validation.samples) {
      text.emplace_back(s.begin(),
                        s.begin() + std::min<long>(kContext, static_cast<long>(s.size())));
    }
    attn::Rng induction_rng(attn::derive_seed(o.seed, kInductionStream));
    std::vector<std::vector<int>> repeated;
    for (int i = 0; i < kInductionSequences; ++i) {
      repeated.push_back(attn::repeated_random_sequence(induction_rng, kCopyLength, 0, words));
    }
    const std::vector<attn::HeadScores> heads =
        attn::measure_heads(shipped, text, repeated, kCopyLength);

    std::string r = "{\n";
    r += "  \"format\": \"attn-lm-report\",\n";
    r += "  \"weights\": {\"file\": \"" + (o.measure.empty() ? o.out : o.measure) +
         "\", \"bytes\": " + std::to_string(file.size()) + ", \"storage\": \"float16\"},\n";
    r += "  \"config\": {\"vocab\": " + std::to_string(config.vocab) +
         ", \"dEmbed\": " + std::to_string(config.d_embed) +
         ", \"dModel\": " + std::to_string(kDModel) + ", \"layers\": " + std::to_string(kLayers) +
         ", \"heads\": " + std::to_string(kHeads) + ", \"dMlp\": " + std::to_string(kDMlp) +
         ", \"context\": " + std::to_string(kContext) +
         ", \"parameters\": " + std::to_string(attn::language_model_parameter_count(config)) +
         ", \"unknownRow\": \"fallback(<unk>)\"},\n";
    const int repeated_rows = attn::repeated_rows_per_batch(training_options(o));
    if (o.measure.empty()) {
      r += "  \"training\": {\"steps\": " + std::to_string(o.steps) +
           ", \"seed\": " + std::to_string(o.seed) + ", \"batch\": " + std::to_string(o.batch) +
           ", \"repeatedPerBatch\": " + std::to_string(repeated_rows) + ", \"repeatedRun\": [" +
           std::to_string(kMinRun) + ", " + std::to_string(kMaxRun) +
           "], \"lr\": " + fmt("%.6g", o.lr) + ", \"warmup\": " + std::to_string(o.warmup) +
           ", \"finalLrFraction\": " + fmt("%.6g", o.final_lr_fraction) +
           ", \"clip\": " + fmt("%.6g", o.clip) +
           ", \"positionScale\": " + fmt("%.6g", o.position_scale) +
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
         ", \"inductionThreshold\": " + fmt("%.2f", attn::kInductionThreshold) +
         ", \"patternThreshold\": " + fmt("%.2f", attn::kPatternThreshold) + "},\n";
    r += "  \"heads\": [\n";
    for (std::size_t i = 0; i < heads.size(); ++i) {
      const attn::HeadScores& h = heads[i];
      r += "    {\"layer\": " + std::to_string(h.layer) + ", \"head\": " + std::to_string(h.head) +
           ", \"previousToken\": " + fmt("%.4f", h.pattern.previous_token) +
           ", \"firstToken\": " + fmt("%.4f", h.pattern.first_token) +
           ", \"self\": " + fmt("%.4f", h.pattern.self) +
           ", \"induction\": " + fmt("%.4f", h.induction) + ", \"kind\": \"" + h.kind + "\"}" +
           (i + 1 < heads.size() ? ",\n" : "\n");
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
    std::fprintf(stderr, "attn_train_lm: %s\n", e.what());
    return 1;
  }
  return 0;
}

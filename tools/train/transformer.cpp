// attn_train transformer: trains the small encoder-decoder Transformer translator
// (docs/transformer.md) natively on the translation corpus (docs/translation-corpus.md), the
// recurrent translators' corpus, and writes it with the German vocabulary into its 8-bit weights
// file.
//
// Reads the corpus splits (build/corpus/translation/{train,validation,test}.bin), its German
// vocabulary (german-vocab.txt) and the page's word vectors (docs/embeddings.md), checking that
// the corpus indexes those very vocabularies. Trains on the core's training loop
// (attn/training_loop.hpp), in one thread, and prints its JSON lines:
// {"model","step","epoch","loss","gradNorm","lr","tokens","seconds"} every --log-every steps, and
// {"model","step","validationLoss","validationPerplexity",...} every --eval-every steps on the
// first --eval-pairs validation pairs; the model keeps the weights of its evaluation with the
// lowest validation loss (the summary's keptStep). It makes the folders of --out and --summary
// before it trains. At the end the weights go through the 8-bit
// file and back, and the validation and test perplexities of that dequantised model, the
// parameter count and the seconds per training step (wall and processor time, held-out checks
// excluded) go into --summary.
//
// Flags: [--steps N] [--seed N] [--batch N] [--lr X] [--warmup N] [--final-lr-fraction X]
//        [--clip X] [--dropout X] [--label-smoothing X] [--d-model N] [--heads N]
//        [--encoder-layers N] [--decoder-layers N] [--d-mlp N] [--norm pre|post]
//        [--log-every N] [--eval-every N]
//        [--eval-pairs N] [--corpus DIR] [--vectors FILE] [--out FILE] [--summary FILE]
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <exception>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../command_line.hpp"
#include "../files.hpp"
#include "attn/committed_translators.hpp"
#include "attn/embeddings.hpp"
#include "attn/lm_weights.hpp"
#include "attn/training_loop.hpp"
#include "attn/transformer_training.hpp"
#include "attn/transformer_translator.hpp"
#include "attn/transformer_weights.hpp"
#include "attn/translation_corpus.hpp"
#include "models.hpp"
#include "translation_data.hpp"

namespace attn::tools {
namespace {

struct Options {
  TransformerTrainingOptions training = committed_transformer_training();
  TransformerTranslatorConfig sizes = committed_transformer_sizes();
  TranslationRunFlags run{"web/public/models/transformer.bin", "build/transformer/summary.json"};
};

Options parse(int argc, char** argv) {
  Options o;
  TransformerTrainingOptions& t = o.training;
  TransformerTranslatorConfig& c = o.sizes;
  CommandLine line("attn_train transformer");
  line.schedule(t.steps, t.seed, t.batch, t.learning_rate, t.warmup, t.final_lr_fraction, t.clip)
      .number("--dropout", t.dropout)
      .number("--label-smoothing", t.label_smoothing)
      .whole("--d-model", c.d_model)
      .whole("--heads", c.heads)
      .whole("--encoder-layers", c.encoder_layers)
      .whole("--decoder-layers", c.decoder_layers)
      .whole("--d-mlp", c.d_mlp)
      .choice("--norm", {"pre", "post"},
              [&c](std::size_t i) { c.norm_place = i == 0 ? NormPlace::pre : NormPlace::post; });
  o.run.declare(line).parse(argc, argv);
  line.check([&] { check_transformer_training_options(t); });
  line.check([&] {
    // The sizes alone: the vocabularies' are known once the files are read.
    TransformerTranslatorConfig sized = c;
    sized.source_words = 1;
    sized.target_words = kTargetUnknown + 2;
    check_transformer_translator_config(sized);
  });
  o.run.check(line);
  return o;
}

}  // namespace

int train_transformer(int argc, char** argv) {
  const Options o = parse(argc, argv);
  keep_large_blocks_on_heap();
  try {
    // The output folders first: a run of hours must not end on a missing folder.
    for (const std::string& path : {o.run.out, o.run.summary}) {
      const std::filesystem::path folder = std::filesystem::path(path).parent_path();
      if (!folder.empty()) std::filesystem::create_directories(folder);
    }
    const TranslationData data(o.run.corpus, o.run.vectors, o.run.eval_pairs);
    const TranslationPairs& train = data.train;
    const TransformerTranslatorConfig config = sized_for(o.sizes, data, o.training.seed);

    TransformerTraining training(config, data.word_vectors, train.pairs, o.training);
    const std::size_t parameters = parameter_count(training.model());
    print_line(start_line("transformer", train.pairs.size(), parameters, o.training));
    HeldOutTime held_out;
    const std::clock_t cpu_start = std::clock();
    const TrainingRunResult result =
        train_translation_model(training, o.run, "transformer", data.eval_pairs, &held_out);
    const double cpu_seconds =
        static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC - held_out.cpu_seconds;
    // Wall time a step (what a run of N steps takes on this machine under its load) and processor
    // time a step (the same on an idle core); held-out checks excluded from both.
    const double steps = static_cast<double>(std::max(1L, training.steps_taken()));
    const double seconds_per_step = (result.seconds - held_out.seconds) / steps;
    const double cpu_per_step = cpu_seconds / steps;
    print_line("{\"event\":\"trained\",\"model\":\"transformer\",\"steps\":" +
               std::to_string(training.steps_taken()) +
               ",\"secondsPerStep\":" + formatted("%.3f", seconds_per_step) +
               ",\"cpuSecondsPerStep\":" + formatted("%.3f", cpu_per_step) + "}");

    // What the page would ship: the 8-bit file, read back, and measured.
    const std::vector<std::uint8_t> file = encode_transformer_translator(
        training.model(), data.vocabulary, vocabulary_hash(data.vectors));
    write_file(o.run.out, file.data(), file.size());
    const TransformerTranslatorWeights weights =
        parse_transformer_translator(file.data(), file.size());
    const TransformerTranslator<float> shipped = make_transformer_translator(
        weights, std::make_shared<const MatrixT<float>>(data.word_vectors));
    const TransformerTrainingOptions& tr = o.training;
    std::string summary = "{\n  \"format\": \"attn-transformer-training\",\n";
    summary += weights_summary(o.run.out, file.size());
    summary += "  \"sizes\": {\"dModel\": " + std::to_string(config.d_model) +
               ", \"heads\": " + std::to_string(config.heads) +
               ", \"encoderLayers\": " + std::to_string(config.encoder_layers) +
               ", \"decoderLayers\": " + std::to_string(config.decoder_layers) +
               ", \"dMlp\": " + std::to_string(config.d_mlp) + ", \"norm\": \"" +
               (config.norm_place == NormPlace::pre ? "pre" : "post") + "\"" +
               ", \"targetWords\": " + std::to_string(config.target_words) + "},\n";
    summary += training_summary(tr, train.pairs.size(),
                                ", \"labelSmoothing\": " + formatted("%g", tr.label_smoothing));
    summary += "  \"model\": {\"parameters\": " + std::to_string(parameters) +
               ", \"stepsTaken\": " + std::to_string(training.steps_taken()) +
               ", \"trainSeconds\": " + formatted("%.1f", result.seconds) +
               ", \"secondsPerStep\": " + formatted("%.3f", seconds_per_step) +
               ", \"cpuSecondsPerStep\": " + formatted("%.3f", cpu_per_step) +
               ", \"tokensPerSecond\": " + formatted("%.0f", result.tokens / result.seconds) +
               shipped_summary(shipped, result.kept_step, data) + "}\n}\n";
    write_file(o.run.summary, summary);
    print_line(summary);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "attn_train transformer: %s\n", e.what());
    return 1;
  }
}

}  // namespace attn::tools

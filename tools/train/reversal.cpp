// attn_train reversal: trains a reversal model natively and prints JSON lines: after every step
// {"step","loss",...} (the loss with 9 significant digits, enough to give back the float32
// exactly), and every K steps and after the last {"step","validationLoss",...,"lengths":[...],
// "sequenceAccuracy":[...],"symbolAccuracy":[...]} on the held-out set. The same options give the
// same numbers as the wasm engine's createTraining.
//
// Flags: [--model fixed|attention] [--scoring additive|dot|scaled_dot] [--d-model N] [--d-k N]
//        [--vocab N] [--min-len N] [--max-len N] [--batch N] [--lr X] [--clip X] [--seed N]
//        [--steps N] [--eval-every K] [--eval-samples N]
// Defaults: those of attn::TrainingOptions, 1000 steps, evaluation at the end only (K = 0), 200
// held-out sequences for each length from min-len to max-len.
#include <cstdio>
#include <string>
#include <vector>

#include "../command_line.hpp"
#include "attn/trainer.hpp"
#include "attn/training_loop.hpp"
#include "models.hpp"

namespace attn::tools {
namespace {

struct Command {
  TrainingOptions options;
  long steps = 1000;
  long eval_every = 0;
  int eval_samples = 200;
};

Command parse(int argc, char** argv) {
  Command c;
  TrainingOptions& o = c.options;
  CommandLine line("attn_train reversal");
  line.choice("--model", {"fixed", "attention"},
              [&o](std::size_t i) { o.model = i == 0 ? Bridge::fixed_vector : Bridge::attention; })
      .choice("--scoring", {"additive", "dot", "scaled_dot"},
              [&o](std::size_t i) {
                const Scoring kinds[] = {Scoring::additive, Scoring::dot, Scoring::scaled_dot};
                o.scoring = kinds[i];
              })
      .whole("--d-model", o.d_model)
      .whole("--d-k", o.d_k)
      .whole("--vocab", o.vocab)
      .whole("--min-len", o.min_length)
      .whole("--max-len", o.max_length)
      .whole("--batch", o.batch)
      .number("--lr", o.learning_rate)
      .number("--clip", o.clip)
      .whole("--seed", o.seed)
      .whole("--steps", c.steps)
      .whole("--eval-every", c.eval_every)
      .whole("--eval-samples", c.eval_samples)
      .parse(argc, argv);
  if (c.steps < 1 || c.steps > 10000000) line.usage("--steps must be from 1 to 10000000");
  if (c.eval_every < 0) line.usage("--eval-every must be >= 0");
  line.check([&] { validate(o); });
  return c;
}

std::string json_list(const char* name, const std::vector<double>& values, const char* format) {
  std::string text = std::string(",\"") + name + "\":[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    text += (i ? "," : "") + formatted(format, values[i]);
  }
  return text + "]";
}

// The held-out loss over every length, and the accuracies at each as JSON members.
HeldOut evaluation(const Trainer& trainer, const std::vector<int>& lengths, int samples) {
  std::vector<double> found, whole, symbols;
  double loss = 0;
  long tokens = 0;
  for (const LengthAccuracy& a : trainer.evaluate(lengths, samples)) {
    const long counted = static_cast<long>(samples) * a.length;
    loss += a.loss * static_cast<double>(counted);
    tokens += counted;
    found.push_back(a.length);
    whole.push_back(a.sequence_accuracy);
    symbols.push_back(a.symbol_accuracy);
  }
  HeldOut h;
  h.loss = loss / static_cast<double>(tokens);
  h.tokens = tokens;
  h.fields = json_list("lengths", found, "%.0f") + json_list("sequenceAccuracy", whole, "%.6g") +
             json_list("symbolAccuracy", symbols, "%.6g");
  return h;
}

}  // namespace

int train_reversal(int argc, char** argv) {
  const Command command = parse(argc, argv);
  try {
    TrainingOptions options = command.options;
    Trainer trainer(options);
    std::vector<int> lengths;
    for (int n = options.min_length; n <= options.max_length; ++n) lengths.push_back(n);
    trainer.evaluate(lengths, command.eval_samples);  // checks the settings before any training
    TrainingRunOptions run;
    run.steps = command.steps;  // the trainer's rate is constant: the command sets the length
    run.eval_every = command.eval_every > 0 ? command.eval_every : command.steps;
    run_training(
        trainer.loop(), trainer, [&] { return evaluation(trainer, lengths, command.eval_samples); },
        run, [](const std::string& line) { std::printf("%s\n", line.c_str()); });
  } catch (const InvalidArgument& error) {
    std::fprintf(stderr, "attn_train reversal: %s\n", error.what());
    return 1;
  }
  return 0;
}

}  // namespace attn::tools

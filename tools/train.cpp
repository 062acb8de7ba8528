// Trains a reversal model natively and prints JSON lines: {"step":s,"loss":x} after every step
// (x with 9 significant digits, enough to give back the float32 exactly), and every K steps, and
// after the last, {"step":s,"lengths":[...],"sequenceAccuracy":[...],"symbolAccuracy":[...]} on the
// held-out set. The same options give the same numbers as the wasm engine's createTraining.
//
// Usage: attn_train [--model fixed|attention] [--scoring additive|dot|scaled_dot] [--d-model N]
//                   [--d-k N] [--vocab N] [--min-len N] [--max-len N] [--batch N] [--lr X]
//                   [--clip X] [--seed N] [--steps N] [--eval-every K] [--eval-samples N]
// Defaults: those of attn::TrainingOptions, 1000 steps, evaluation at the end only (K = 0), 200
// held-out sequences for each length from min-len to max-len.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "attn/trainer.hpp"
#include "command_line.hpp"

namespace {

struct Command {
  attn::TrainingOptions options;
  long steps = 1000;
  long eval_every = 0;
  int eval_samples = 200;
};

Command parse(int argc, char** argv) {
  Command c;
  attn::TrainingOptions& o = c.options;
  attn::tools::CommandLine line("attn_train");
  line.choice("--model", {"fixed", "attention"},
              [&o](std::size_t i) {
                o.model = i == 0 ? attn::Bridge::fixed_vector : attn::Bridge::attention;
              })
      .choice("--scoring", {"additive", "dot", "scaled_dot"},
              [&o](std::size_t i) {
                const attn::Scoring kinds[] = {attn::Scoring::additive, attn::Scoring::dot,
                                               attn::Scoring::scaled_dot};
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
  return c;
}

void print_list(const char* name, const std::vector<double>& values) {
  std::printf(",\"%s\":[", name);
  for (size_t i = 0; i < values.size(); ++i) std::printf("%s%.6g", i ? "," : "", values[i]);
  std::printf("]");
}

void print_evaluation(const attn::Trainer& trainer, const std::vector<int>& lengths, int samples) {
  const std::vector<attn::LengthAccuracy> result = trainer.evaluate(lengths, samples);
  std::vector<double> whole, symbols;
  std::printf("{\"step\":%ld,\"lengths\":[", trainer.steps());
  for (size_t i = 0; i < result.size(); ++i) {
    std::printf("%s%d", i ? "," : "", result[i].length);
    whole.push_back(result[i].sequence_accuracy);
    symbols.push_back(result[i].symbol_accuracy);
  }
  std::printf("]");
  print_list("sequenceAccuracy", whole);
  print_list("symbolAccuracy", symbols);
  std::printf("}\n");
}

}  // namespace

int main(int argc, char** argv) {
  const Command command = parse(argc, argv);
  try {
    attn::Trainer trainer(command.options);
    std::vector<int> lengths;
    for (int n = command.options.min_length; n <= command.options.max_length; ++n) {
      lengths.push_back(n);
    }
    trainer.evaluate(lengths, command.eval_samples);  // checks the settings before any training
    for (long s = 1; s <= command.steps; ++s) {
      std::printf("{\"step\":%ld,\"loss\":%.9g}\n", s, static_cast<double>(trainer.step(1)[0]));
      if ((command.eval_every > 0 && s % command.eval_every == 0) || s == command.steps) {
        print_evaluation(trainer, lengths, command.eval_samples);
      }
    }
  } catch (const attn::InvalidArgument& error) {
    std::fprintf(stderr, "attn_train: %s\n", error.what());
    return 1;
  }
  return 0;
}

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

namespace {

struct Command {
  attn::TrainingOptions options;
  long steps = 1000;
  long eval_every = 0;
  int eval_samples = 200;
};

[[noreturn]] void usage(const char* message) {
  std::fprintf(stderr,
               "attn_train: %s\nusage: attn_train [--model fixed|attention] "
               "[--scoring additive|dot|scaled_dot] [--d-model N] [--d-k N] [--vocab N] "
               "[--min-len N] [--max-len N] [--batch N] [--lr X] [--clip X] [--seed N] "
               "[--steps N] [--eval-every K] [--eval-samples N]\n",
               message);
  std::exit(2);
}

double number(const std::string& flag, const char* text) {
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (end == text || *end != '\0') usage((flag + " needs a number, got '" + text + "'").c_str());
  return value;
}

long whole(const std::string& flag, const char* text) {
  const double value = number(flag, text);
  if (!(std::fabs(value) < 1e15) || value != static_cast<double>(static_cast<long long>(value))) {
    usage((flag + " needs a whole number, got '" + text + "'").c_str());
  }
  return static_cast<long>(value);
}

Command parse(int argc, char** argv) {
  Command c;
  attn::TrainingOptions& o = c.options;
  for (int i = 1; i < argc; i += 2) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) usage((flag + " needs a value").c_str());
    const char* value = argv[i + 1];
    if (flag == "--model") {
      const std::string v = value;
      if (v != "fixed" && v != "attention") usage("--model is fixed or attention");
      o.model = v == "fixed" ? attn::ModelKind::fixed_vector : attn::ModelKind::attention;
    } else if (flag == "--scoring") {
      const std::string v = value;
      if (v == "additive") {
        o.scoring = attn::Scoring::additive;
      } else if (v == "dot") {
        o.scoring = attn::Scoring::dot;
      } else if (v == "scaled_dot") {
        o.scoring = attn::Scoring::scaled_dot;
      } else {
        usage("--scoring is additive, dot or scaled_dot");
      }
    } else if (flag == "--d-model") {
      o.d_model = static_cast<int>(whole(flag, value));
    } else if (flag == "--d-k") {
      o.d_k = static_cast<int>(whole(flag, value));
    } else if (flag == "--vocab") {
      o.vocab = static_cast<int>(whole(flag, value));
    } else if (flag == "--min-len") {
      o.min_length = static_cast<int>(whole(flag, value));
    } else if (flag == "--max-len") {
      o.max_length = static_cast<int>(whole(flag, value));
    } else if (flag == "--batch") {
      o.batch = static_cast<int>(whole(flag, value));
    } else if (flag == "--lr") {
      o.learning_rate = number(flag, value);
    } else if (flag == "--clip") {
      o.clip = number(flag, value);
    } else if (flag == "--seed") {
      const long seed = whole(flag, value);
      if (seed < 0) usage("--seed must be >= 0");
      o.seed = static_cast<std::uint64_t>(seed);
    } else if (flag == "--steps") {
      c.steps = whole(flag, value);
    } else if (flag == "--eval-every") {
      c.eval_every = whole(flag, value);
    } else if (flag == "--eval-samples") {
      c.eval_samples = static_cast<int>(whole(flag, value));
    } else {
      usage(("unknown flag " + flag).c_str());
    }
  }
  if (c.steps < 1 || c.steps > 10000000) usage("--steps must be from 1 to 10000000");
  if (c.eval_every < 0) usage("--eval-every must be >= 0");
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

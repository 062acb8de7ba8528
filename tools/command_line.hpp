// The native tools' one argument parser: each tool declares its flags (each takes one value) with
// the variable the value goes to; parse() reads argv into them, and a bad value, an unknown flag or
// a missing value ends the program with exit code 2, the message, and a usage line made from the
// declarations.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace attn::tools {

class CommandLine {
 public:
  explicit CommandLine(std::string program) : program_(std::move(program)) {}

  // --flag X: a finite number.
  CommandLine& number(const char* flag, double& target) {
    return add(flag, "X", [this, &target](const std::string& f, const char* v) {
      target = parse_number(f, v);
    });
  }

  // --flag N: a whole number that fits the target.
  template <typename Integer>
  CommandLine& whole(const char* flag, Integer& target) {
    return add(flag, "N", [this, &target](const std::string& f, const char* v) {
      const double value = parse_whole(f, v);
      if (value < static_cast<double>(lowest<Integer>()) ||
          value > static_cast<double>(highest<Integer>())) {
        usage(f + " must be from " + std::to_string(static_cast<long long>(lowest<Integer>())) +
              " to " + std::to_string(static_cast<long long>(highest<Integer>())) + ", got '" + v +
              "'");
      }
      target = static_cast<Integer>(value);
    });
  }

  // --flag DIR, --flag FILE: any text.
  CommandLine& text(const char* flag, const char* metavar, std::string& target) {
    return add(flag, metavar, [&target](const std::string&, const char* v) { target = v; });
  }

  // --flag a|b|c: one of names; pick receives its index.
  CommandLine& choice(const char* flag, std::vector<std::string> names,
                      std::function<void(std::size_t)> pick) {
    std::string metavar;
    for (const std::string& name : names) metavar += (metavar.empty() ? "" : "|") + name;
    return add(flag, metavar, [this, names, pick, metavar](const std::string& f, const char* v) {
      for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i] == v) return pick(i);
      }
      usage(f + " is " + metavar + ", got '" + v + "'");
    });
  }

  // The flags of a training schedule, which every trainer takes: --steps --seed --batch --lr
  // --warmup --final-lr-fraction --clip.
  template <typename Steps, typename Seed, typename Batch>
  CommandLine& schedule(Steps& steps, Seed& seed, Batch& batch, double& learning_rate, long& warmup,
                        double& final_lr_fraction, double& clip) {
    return whole("--steps", steps)
        .whole("--seed", seed)
        .whole("--batch", batch)
        .number("--lr", learning_rate)
        .whole("--warmup", warmup)
        .number("--final-lr-fraction", final_lr_fraction)
        .number("--clip", clip);
  }

  void parse(int argc, char** argv) const {
    for (int i = 1; i < argc; i += 2) {
      const std::string flag = argv[i];
      const Flag* known = nullptr;
      for (const Flag& f : flags_) {
        if (f.name == flag) known = &f;
      }
      if (!known) usage("unknown flag " + flag);
      if (i + 1 >= argc) usage(flag + " needs a value");
      known->set(flag, argv[i + 1]);
    }
  }

  // Runs a check of the values read (a core function that throws std::invalid_argument, as
  // attn::InvalidArgument is) and turns its refusal into the usage message.
  void check(const std::function<void()>& values_check) const {
    try {
      values_check();
    } catch (const std::invalid_argument& refused) {
      usage(refused.what());
    }
  }

  [[noreturn]] void usage(const std::string& message) const {
    std::string line = "usage: " + program_;
    for (const Flag& f : flags_) line += " [" + f.name + " " + f.metavar + "]";
    std::fprintf(stderr, "%s: %s\n%s\n", program_.c_str(), message.c_str(), line.c_str());
    std::exit(2);
  }

 private:
  struct Flag {
    std::string name, metavar;
    std::function<void(const std::string&, const char*)> set;
  };

  CommandLine& add(const char* flag, std::string metavar,
                   std::function<void(const std::string&, const char*)> set) {
    flags_.push_back({flag, std::move(metavar), std::move(set)});
    return *this;
  }

  double parse_number(const std::string& flag, const char* text) const {
    char* end = nullptr;
    const double value = std::strtod(text, &end);
    if (end == text || *end != '\0' || !std::isfinite(value)) {
      usage(flag + " needs a number, got '" + text + "'");
    }
    return value;
  }

  double parse_whole(const std::string& flag, const char* text) const {
    const double value = parse_number(flag, text);
    if (!(std::fabs(value) < 1e15) || value != std::floor(value)) {
      usage(flag + " needs a whole number, got '" + text + "'");
    }
    return value;
  }

  template <typename Integer>
  static double lowest() {
    return std::max(-1e15, static_cast<double>(std::numeric_limits<Integer>::lowest()));
  }
  template <typename Integer>
  static double highest() {
    return std::min(1e15, static_cast<double>(std::numeric_limits<Integer>::max()));
  }

  std::string program_;
  std::vector<Flag> flags_;
};

}  // namespace attn::tools

// The embind surface of training: one class, Training, over attn::Trainer. JavaScript gets it
// through web/src/engine/training.js, which checks the options first and frees the instance in
// dispose(); here they are converted, and every C++ exception becomes a JavaScript Error.
#include <emscripten/bind.h>

#include <string>

#include "attn/trainer.hpp"
#include "convert.hpp"

namespace attn::bindings {
namespace {

constexpr const char* kWhere = "training";

std::string text_option(const val& options, const char* name) {
  const val value = options[name];
  if (!value.isString())
    throw InvalidArgument(std::string(kWhere) + ": " + name + " must be a string");
  return value.as<std::string>();
}

// { model, scoring, dModel, dK, vocab, minLength, maxLength, batch, learningRate, clip, seed },
// every field present (the facade fills in the defaults).
TrainingOptions options_from(const val& options) {
  TrainingOptions o;
  const std::string model = text_option(options, "model");
  if (model != "fixed" && model != "attention") {
    throw InvalidArgument(std::string(kWhere) + ": model must be 'fixed' or 'attention', got '" +
                          model + "'");
  }
  o.model = model == "fixed" ? Bridge::fixed_vector : Bridge::attention;
  const std::string scoring = text_option(options, "scoring");
  if (scoring == "additive") {
    o.scoring = Scoring::additive;
  } else if (scoring == "dot") {
    o.scoring = Scoring::dot;
  } else if (scoring == "scaled_dot") {
    o.scoring = Scoring::scaled_dot;
  } else {
    throw InvalidArgument(std::string(kWhere) +
                          ": scoring must be 'additive', 'dot' or 'scaled_dot', got '" + scoring +
                          "'");
  }
  o.d_model = whole_option(options, "dModel", kWhere);
  o.d_k = whole_option(options, "dK", kWhere);
  o.vocab = whole_option(options, "vocab", kWhere);
  o.min_length = whole_option(options, "minLength", kWhere);
  o.max_length = whole_option(options, "maxLength", kWhere);
  o.batch = whole_option(options, "batch", kWhere);
  o.learning_rate = number_option(options, "learningRate", kWhere);
  o.clip = number_option(options, "clip", kWhere);
  o.seed = seed_option(options, kWhere);
  return o;
}

val int_list(const std::vector<int>& values) {
  val list = val::array();
  for (const int v : values) list.call<void>("push", v);
  return list;
}

class Training {
 public:
  explicit Training(const TrainingOptions& options) : trainer_(options) {}

  // -> (n) losses, each computed before its step's update
  val step(int n) {
    return guarded([&] {
      const std::vector<float> losses = trainer_.step(n);
      return float32_array(losses.data(), losses.size());
    });
  }

  // lengths: whole numbers -> { lengths, sequenceAccuracy: (lengths), symbolAccuracy: (lengths) }
  val evaluate(const val& lengths, int samples) const {
    return guarded([&] {
      const std::vector<LengthAccuracy> result =
          trainer_.evaluate(ints_from(lengths, "training: evaluate", "lengths"), samples);
      std::vector<int> asked;
      std::vector<double> whole, symbols;
      for (const LengthAccuracy& a : result) {
        asked.push_back(a.length);
        whole.push_back(a.sequence_accuracy);
        symbols.push_back(a.symbol_accuracy);
      }
      val out = val::object();
      out.set("lengths", int_list(asked));
      out.set("sequenceAccuracy", float32_array(whole));
      out.set("symbolAccuracy", float32_array(symbols));
      return out;
    });
  }

  // -> { length, input: (L), target: (L), output: (L), weights: (L, L) }
  val attention_map(int length) const {
    return guarded([&] {
      const AttentionMap map = trainer_.attention_map(length);
      val out = val::object();
      out.set("length", map.length);
      out.set("input", int_list(map.input));
      out.set("target", int_list(map.target));
      out.set("output", int_list(map.output));
      out.set("weights", float32_array(map.weights));
      return out;
    });
  }

  double steps() const { return static_cast<double>(trainer_.steps()); }

 private:
  Trainer trainer_;
};

// The constructor JavaScript calls: bad options become a JavaScript Error, not a bare number.
Training* create_training(const val& options) {
  return guarded([&] { return new Training(options_from(options)); });
}

}  // namespace
}  // namespace attn::bindings

EMSCRIPTEN_BINDINGS(attention_training) {
  using namespace attn::bindings;
  emscripten::class_<Training>("Training")
      .constructor(&create_training, emscripten::allow_raw_pointers())
      .function("step", &Training::step)
      .function("evaluate", &Training::evaluate)
      .function("attentionMap", &Training::attention_map)
      .function("steps", &Training::steps);
}

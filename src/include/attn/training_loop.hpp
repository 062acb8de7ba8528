// What training every model shares, written once: the learning-rate schedule (linear warm-up, then
// a cosine), Adam, the clipping of the gradients' global norm, the stream of dropout masks, and a
// run of steps with its progress lines, held-out checks and kept step. A model plugs in through
// `Trainable`: its parameters and the loss and gradient of its next batch. The reversal models
// (trainer.hpp), the language model (lm_training.hpp) and the translators
// (translator_training.hpp) are three such models; docs/adding-a-model.md walks through a new one.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "attn/adam.hpp"
#include "attn/random.hpp"

namespace attn {

// The rate for step s (counting from 1): learning_rate * s / warmup during the warm-up, then a
// cosine from learning_rate down to learning_rate * final_lr_fraction at step `steps`, flat after
// it (adam.hpp's warmup_cosine_rate). warmup 0 and final_lr_fraction 1 give a constant rate.
struct TrainingSchedule {
  long steps = 1;                // the schedule's length, 1 to 1e7
  double learning_rate = 3e-3;   // the peak, in (0, 1000)
  long warmup = 0;               // steps of linear warm-up, >= 0
  double final_lr_fraction = 1;  // in (0, 1]
  double clip = 1.0;             // the gradients' global norm limit, >= 0 (0: off)
  std::uint64_t seed = 1;        // of the dropout masks: derive_seed(seed, kDropoutStream)
};

// The stream tag of the dropout masks (random.hpp's derive_seed). A model's own streams (its
// batches) use other tags.
constexpr std::uint64_t kDropoutStream = 2;

// The schedule of a model's training options, which name its fields as TrainingSchedule does.
template <typename Options>
TrainingSchedule schedule_of(const Options& options) {
  TrainingSchedule s;
  s.steps = options.steps;
  s.learning_rate = options.learning_rate;
  s.warmup = options.warmup;
  s.final_lr_fraction = options.final_lr_fraction;
  s.clip = options.clip;
  s.seed = options.seed;
  return s;
}

// Throws InvalidArgument, naming `where`, on a schedule outside the ranges above.
void check_schedule(const char* where, const TrainingSchedule& schedule);

// The rate of step `step` under the schedule.
double scheduled_rate(const TrainingSchedule& schedule, long step);

// One batch's loss, before the update, and what it read.
struct BatchLoss {
  float loss = 0;   // the batch's mean loss per predicted token
  long tokens = 0;  // tokens read (inputs and targets), for throughput
  long epoch = 0;   // the pass over the training data the batch comes from (0: not counted)
};

// A model under training.
class Trainable {
 public:
  virtual ~Trainable() = default;
  // The trainable parameters, in a fixed order, at stable addresses.
  virtual std::vector<Parameter<float>*> parameters() = 0;
  // Draws the next batch and adds the gradient of its mean loss into the parameters' gradients,
  // which the loop has zeroed. `dropout` is the run's stream of dropout masks; a model without
  // dropout leaves it alone.
  virtual BatchLoss forward_backward(Rng& dropout) = 0;
};

// One step's numbers.
struct TrainingStep {
  float loss = 0;           // the batch's, before the update
  float gradient_norm = 0;  // before clipping
  double learning_rate = 0;
  long tokens = 0;
  long epoch = 0;
};

// A model, its optimiser and its schedule: step() is one step of training. The same model seeds
// and schedule give the same bits on every run of one build (natively and in wasm, where the
// model's own operations do).
class TrainingLoop {
 public:
  // Throws InvalidArgument as check_schedule does. `model` must outlive the loop.
  TrainingLoop(Trainable& model, const TrainingSchedule& schedule);

  // Zeroes the gradients, sets the rate of the next step, lets the model compute its batch's
  // loss and gradient, clips their global norm, and takes one Adam step.
  TrainingStep step();

  long steps_taken() const { return steps_taken_; }
  const TrainingSchedule& schedule() const { return schedule_; }

 private:
  Trainable& model_;
  TrainingSchedule schedule_;
  std::vector<Parameter<float>*> parameters_;
  Adam<float> adam_;
  Rng dropout_;
  long steps_taken_ = 0;
};

// What every model's training class shares: it owns the model and the loop that trains it, and
// is the loop's Trainable. A derived class adds its batches and forward_backward.
template <typename Model>
class ModelTraining : public Trainable {
 public:
  using Step = TrainingStep;
  // One step of the loop: the next batch's loss and gradient, clipping, one Adam step at the
  // scheduled rate. The same seeds give the same bits on every run of one build.
  Step step() { return loop_.step(); }
  std::vector<Parameter<float>*> parameters() final { return model_->parameters(); }

  TrainingLoop& loop() { return loop_; }
  long steps_taken() const { return loop_.steps_taken(); }
  const Model& model() const { return *model_; }
  Model& model() { return *model_; }

 protected:
  // Throws InvalidArgument as check_schedule does.
  ModelTraining(std::unique_ptr<Model> model, const TrainingSchedule& schedule)
      : model_(std::move(model)), loop_(*this, schedule) {}

 private:
  std::unique_ptr<Model> model_;  // a stable address for the loop's parameters
  TrainingLoop loop_;
};

// A held-out measurement: the mean loss per predicted token and how many tokens it counts
// (exp(loss) is the perplexity), plus any JSON members the model adds to its line (",\"a\":1").
struct HeldOut {
  double loss = 0;
  long tokens = 0;
  std::string fields;
};

struct TrainingRunOptions {
  long steps = 0;          // the run's last step, 0: the schedule's
  std::string model;       // the "model" member of every line ("" for none)
  long log_every = 1;      // a progress line every N steps and after the last, >= 1
  long eval_every = 0;     // a held-out line every N steps and after the last (0: never)
  bool keep_best = false;  // end with the weights of the held-out check of lowest loss
};

struct TrainingRunResult {
  double seconds = 0;  // the run's wall time
  long tokens = 0;     // read by all steps
  long kept_step = 0;  // the step whose weights the model ends with
};

// Runs the loop to the last step (options.steps, else the schedule's). Prints (through `print`, a
// line without its newline)
// {"model","step","epoch","loss","gradNorm","lr","tokens","seconds"} every log_every steps, the
// loss the mean since the line before (%.9g: one step's float32 loss exactly), and
// {"model","step","validationLoss","validationPerplexity",...fields,"seconds"} every eval_every
// steps from `held_out`. With keep_best it then restores the weights of the check of lowest loss,
// so that a run longer than the data supports costs time, not quality. Throws InvalidArgument on
// options out of range, or what the model throws.
TrainingRunResult run_training(TrainingLoop& loop, Trainable& model,
                               const std::function<HeldOut()>& held_out,
                               const TrainingRunOptions& options,
                               const std::function<void(const std::string&)>& print);

}  // namespace attn

// The training loop every model shares (training_loop.hpp).
#include "attn/training_loop.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "checks.hpp"

namespace attn {
namespace {

AdamOptions first_step_adam(const TrainingSchedule& schedule) {
  AdamOptions adam;
  adam.learning_rate = scheduled_rate(schedule, 1);
  return adam;
}

std::string number(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

}  // namespace

void check_schedule(const char* where, const TrainingSchedule& s) {
  if (s.steps < 1 || s.steps > 10000000) {
    detail::fail(where, "steps must be from 1 to 10000000, got " + std::to_string(s.steps));
  }
  if (!(s.learning_rate > 0 && s.learning_rate < 1e3)) {
    detail::fail(where, "the learning rate must be in (0, 1000)");
  }
  if (s.warmup < 0) detail::fail(where, "warmup must be >= 0");
  if (!(s.final_lr_fraction > 0 && s.final_lr_fraction <= 1)) {
    detail::fail(where, "the final learning-rate fraction must be in (0, 1]");
  }
  if (!(s.clip >= 0)) detail::fail(where, "clip must be >= 0");
}

double scheduled_rate(const TrainingSchedule& s, long step) {
  return warmup_cosine_rate(s.learning_rate, s.warmup, s.steps, s.final_lr_fraction, step);
}

TrainingLoop::TrainingLoop(Trainable& model, const TrainingSchedule& schedule)
    : model_(model),
      schedule_((check_schedule("training", schedule), schedule)),
      parameters_(model.parameters()),
      adam_(parameters_, first_step_adam(schedule)),
      dropout_(derive_seed(schedule.seed, kDropoutStream)) {}

TrainingStep TrainingLoop::step() {
  ++steps_taken_;
  const double rate = scheduled_rate(schedule_, steps_taken_);
  adam_.set_learning_rate(rate);
  for (Parameter<float>* p : parameters_) p->zero_grad();
  const BatchLoss batch = model_.forward_backward(dropout_);
  // A rare large gradient cannot throw the weights far.
  const float norm = clip_global_norm(parameters_, static_cast<float>(schedule_.clip));
  adam_.step();
  return {batch.loss, norm, rate, batch.tokens, batch.epoch};
}

TrainingRunResult run_training(TrainingLoop& loop, Trainable& model,
                               const std::function<HeldOut()>& held_out,
                               const TrainingRunOptions& options,
                               const std::function<void(const std::string&)>& print) {
  constexpr const char* kWhere = "training run";
  if (options.log_every < 1) detail::fail(kWhere, "log_every must be >= 1");
  if (options.eval_every < 0) detail::fail(kWhere, "eval_every must be >= 0");
  if (options.steps < 0) detail::fail(kWhere, "steps must be >= 0");
  const auto started = std::chrono::steady_clock::now();
  const auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  const std::string head =
      "{" + (options.model.empty() ? std::string() : "\"model\":\"" + options.model + "\",");
  const long last = options.steps > 0 ? options.steps : loop.schedule().steps;
  const std::vector<Parameter<float>*> parameters = model.parameters();
  std::vector<MatrixT<float>> best;
  double best_loss = 0;
  TrainingRunResult result;
  double loss_sum = 0;
  long losses = 0;
  for (long step = loop.steps_taken() + 1; step <= last; ++step) {
    const TrainingStep s = loop.step();
    result.tokens += s.tokens;
    loss_sum += static_cast<double>(s.loss);
    ++losses;
    if (step % options.log_every == 0 || step == last) {
      print(head + "\"step\":" + std::to_string(step) +
            (s.epoch > 0 ? ",\"epoch\":" + std::to_string(s.epoch) : std::string()) +
            ",\"loss\":" + number("%.9g", loss_sum / static_cast<double>(losses)) +
            ",\"gradNorm\":" + number("%.6g", s.gradient_norm) + ",\"lr\":" +
            number("%.6g", s.learning_rate) + ",\"tokens\":" + std::to_string(result.tokens) +
            ",\"seconds\":" + number("%.1f", seconds()) + "}");
      loss_sum = 0;
      losses = 0;
    }
    if (options.eval_every > 0 && (step % options.eval_every == 0 || step == last)) {
      const HeldOut h = held_out();
      print(head + "\"step\":" + std::to_string(step) +
            ",\"validationLoss\":" + number("%.6f", h.loss) + ",\"validationPerplexity\":" +
            number("%.4f", std::exp(h.loss)) + ",\"validationTokens\":" + std::to_string(h.tokens) +
            h.fields + ",\"seconds\":" + number("%.1f", seconds()) + "}");
      if (options.keep_best && (result.kept_step == 0 || h.loss < best_loss)) {
        result.kept_step = step;
        best_loss = h.loss;
        best.clear();
        for (const Parameter<float>* p : parameters) best.push_back(p->value);
      }
    }
  }
  if (result.kept_step == 0 || result.kept_step == last) {
    result.kept_step = last;
  } else {
    for (std::size_t i = 0; i < parameters.size(); ++i) parameters[i]->value = std::move(best[i]);
  }
  result.seconds = seconds();
  return result;
}

}  // namespace attn

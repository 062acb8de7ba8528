#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "attn/training_loop.hpp"

namespace {

// A model of one weight w and the loss (w - target)^2 per batch: its gradient 2 (w - target).
// It records what the loop hands it, so the tests see the order of the loop's work.
class Quadratic final : public attn::Trainable {
 public:
  explicit Quadratic(float start, float target = 3)
      : w_("w", attn::MatrixT<float>::Constant(1, 1, start)), target_(target) {}

  std::vector<attn::Parameter<float>*> parameters() override { return {&w_}; }

  attn::BatchLoss forward_backward(attn::Rng& dropout) override {
    grad_seen.push_back(w_.grad(0, 0));  // what the loop left in the gradient before this batch
    dropout_draws.push_back(dropout.next_u32());
    const float error = w_.value(0, 0) - target_;
    w_.grad(0, 0) += 2 * error;
    return {error * error, 4, 1};
  }

  float weight() const { return w_.value(0, 0); }
  void set_weight(float w) { w_.value(0, 0) = w; }

  std::vector<float> grad_seen;
  std::vector<std::uint32_t> dropout_draws;

 private:
  attn::Parameter<float> w_;
  float target_;
};

}  // namespace

TEST_CASE("training loop: the learning rate warms up linearly, then follows a cosine to its floor",
          "[training-loop]") {
  attn::TrainingSchedule o;
  o.learning_rate = 0.01;
  o.warmup = 10;
  o.steps = 110;
  o.final_lr_fraction = 0.1;
  CHECK(attn::scheduled_rate(o, 1) == Approx(0.001));
  CHECK(attn::scheduled_rate(o, 5) == Approx(0.005));
  CHECK(attn::scheduled_rate(o, 10) == Approx(0.01));
  // Halfway through the cosine (step 60 of 10..110): the mean of the peak and the floor.
  CHECK(attn::scheduled_rate(o, 60) == Approx(0.01 * (0.1 + 0.9 * 0.5)));
  // A quarter of the way: lr (f + (1 - f) (1 + cos(pi / 4)) / 2).
  CHECK(attn::scheduled_rate(o, 35) ==
        Approx(0.01 * (0.1 + 0.9 * 0.5 * (1 + std::cos(3.14159265358979323846 / 4)))));
  CHECK(attn::scheduled_rate(o, 110) == Approx(0.001));
  CHECK(attn::scheduled_rate(o, 111) == Approx(0.001));
  CHECK(attn::scheduled_rate(o, 5000) == Approx(0.001));
  // Rising through the warm-up, falling after it, never below the floor.
  for (long step = 1; step < 10; ++step) {
    CHECK(attn::scheduled_rate(o, step) < attn::scheduled_rate(o, step + 1));
  }
  for (long step = 10; step < 110; ++step) {
    CHECK(attn::scheduled_rate(o, step + 1) < attn::scheduled_rate(o, step));
    CHECK(attn::scheduled_rate(o, step + 1) >= 0.001 * (1 - 1e-12));
  }

  // No warm-up: the first step is already on the cosine, just below the peak.
  o.warmup = 0;
  CHECK(attn::scheduled_rate(o, 1) < 0.01);
  CHECK(attn::scheduled_rate(o, 1) > 0.0099);
  CHECK(attn::scheduled_rate(o, 55) == Approx(0.0055));
  // A final fraction of 1: flat at the peak after the warm-up.
  o.final_lr_fraction = 1;
  CHECK(attn::scheduled_rate(o, 1) == Approx(0.01));
  CHECK(attn::scheduled_rate(o, 80) == Approx(0.01));
}

TEST_CASE("training loop: the schedule's bounds are refused", "[training-loop]") {
  const auto refused = [](auto change) {
    attn::TrainingSchedule s;
    change(s);
    return s;
  };
  using S = attn::TrainingSchedule;
  REQUIRE_NOTHROW(attn::check_schedule("test", S{}));
  const std::vector<S> bad = {refused([](S& s) { s.steps = 0; }),
                              refused([](S& s) { s.steps = 10000001; }),
                              refused([](S& s) { s.learning_rate = 0; }),
                              refused([](S& s) { s.learning_rate = 1e3; }),
                              refused([](S& s) { s.learning_rate = NAN; }),
                              refused([](S& s) { s.warmup = -1; }),
                              refused([](S& s) { s.final_lr_fraction = 0; }),
                              refused([](S& s) { s.final_lr_fraction = 1.5; }),
                              refused([](S& s) { s.clip = -1; })};
  for (const S& s : bad) {
    REQUIRE_THROWS_AS(attn::check_schedule("test", s), attn::InvalidArgument);
    Quadratic model(0);
    REQUIRE_THROWS_AS(attn::TrainingLoop(model, s), attn::InvalidArgument);
  }
}

TEST_CASE("training loop: a step zeroes, computes, clips and updates at the scheduled rate",
          "[training-loop]") {
  Quadratic model(0);  // gradient -6 at the start
  attn::TrainingSchedule schedule;
  schedule.steps = 10;
  schedule.learning_rate = 0.1;
  schedule.warmup = 2;
  schedule.clip = 1;
  schedule.seed = 5;
  attn::TrainingLoop loop(model, schedule);
  const attn::TrainingStep first = loop.step();
  CHECK(first.loss == 9);
  CHECK(first.gradient_norm == 6);             // before clipping
  CHECK(first.learning_rate == Approx(0.05));  // half-way through the warm-up
  CHECK(first.tokens == 4);
  CHECK(first.epoch == 1);
  // Adam's first step moves by the rate against the gradient's sign, whatever its size.
  CHECK(model.weight() == Approx(0.05f));
  const attn::TrainingStep second = loop.step();
  CHECK(second.learning_rate == Approx(0.1));
  CHECK(loop.steps_taken() == 2);
  // The loop zeroed the gradient before each batch.
  CHECK(model.grad_seen == std::vector<float>{0, 0});
  // The dropout masks come from derive_seed(seed, kDropoutStream), one stream for the run.
  attn::Rng expected(attn::derive_seed(5, attn::kDropoutStream));
  CHECK(model.dropout_draws[0] == expected.next_u32());
  CHECK(model.dropout_draws[1] == expected.next_u32());
}

TEST_CASE("training loop: the same start gives the same bits", "[training-loop]") {
  attn::TrainingSchedule schedule;
  schedule.steps = 50;
  schedule.warmup = 5;
  schedule.final_lr_fraction = 0.1;
  Quadratic a(-1), b(-1);
  attn::TrainingLoop loop_a(a, schedule), loop_b(b, schedule);
  for (int i = 0; i < 50; ++i) {
    const float loss_a = loop_a.step().loss;
    CHECK(loss_a == loop_b.step().loss);
  }
  CHECK(a.weight() == b.weight());
  CHECK(std::fabs(a.weight() - 3) < std::fabs(-1.0f - 3));  // it learned
}

TEST_CASE("training run: progress and held-out lines, and the kept step", "[training-loop]") {
  Quadratic model(0);
  attn::TrainingSchedule schedule;
  schedule.steps = 6;
  schedule.learning_rate = 0.5;
  attn::TrainingLoop loop(model, schedule);
  // Held-out losses 3, 1, 2 at steps 2, 4, 6: the run ends with the weights of step 4.
  const std::vector<double> held_out_losses = {3, 1, 2};
  std::vector<float> weights_at_checks;
  std::size_t checks = 0;
  const auto held_out = [&] {
    weights_at_checks.push_back(model.weight());
    return attn::HeldOut{held_out_losses[checks++], 10, ",\"extra\":7"};
  };
  std::vector<std::string> lines;
  attn::TrainingRunOptions options;
  options.model = "toy";
  options.log_every = 3;
  options.eval_every = 2;
  options.keep_best = true;
  const attn::TrainingRunResult result = attn::run_training(
      loop, model, held_out, options, [&](const std::string& line) { lines.push_back(line); });
  CHECK(result.kept_step == 4);
  CHECK(result.tokens == 6 * 4);
  CHECK(model.weight() == weights_at_checks[1]);
  CHECK(model.weight() != weights_at_checks[2]);
  // Progress at steps 3 and 6, held-out checks at 2, 4 and 6.
  REQUIRE(lines.size() == 5);
  CHECK(lines[0].rfind("{\"model\":\"toy\",\"step\":2,\"validationLoss\":3.000000,", 0) == 0);
  CHECK(lines[0].find(",\"validationTokens\":10,\"extra\":7,\"seconds\":") != std::string::npos);
  CHECK(lines[1].rfind("{\"model\":\"toy\",\"step\":3,\"epoch\":1,\"loss\":", 0) == 0);
  CHECK(lines[4].rfind("{\"model\":\"toy\",\"step\":6,\"validationLoss\":2.000000,", 0) == 0);

  // Without keep_best the weights of the last step stay; bad options are refused.
  Quadratic last(0);
  attn::TrainingLoop last_loop(last, schedule);
  options.keep_best = false;
  checks = 0;
  weights_at_checks.clear();
  const auto last_held_out = [&] {
    weights_at_checks.push_back(last.weight());
    return attn::HeldOut{held_out_losses[checks++], 10, ""};
  };
  const auto ignore = [](const std::string&) {};
  CHECK(attn::run_training(last_loop, last, last_held_out, options, ignore).kept_step == 6);
  CHECK(last.weight() == weights_at_checks[2]);
  options.log_every = 0;
  CHECK_THROWS_AS(attn::run_training(last_loop, last, last_held_out, options, ignore),
                  attn::InvalidArgument);
}

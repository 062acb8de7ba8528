// Adam with bias correction, and clipping of the gradients' global norm. Templates on the scalar
// (float and double, instantiated in adam.cpp); parameters as in layers.hpp.
#pragma once

#include <vector>

#include "attn/layers.hpp"

namespace attn {

struct AdamOptions {
  double learning_rate = 3e-3;  // > 0
  double beta1 = 0.9;           // in [0, 1): decay of the running mean of the gradient
  double beta2 = 0.999;         // in [0, 1): decay of the running mean of its square
  double epsilon = 1e-8;        // > 0: keeps the step finite where the gradient has been ~0
};

// Keeps a running mean m and mean square v of every parameter's gradient and steps each entry by
// -lr * m_hat / (sqrt(v_hat) + eps), where m_hat = m / (1 - beta1^t) and v_hat = v / (1 - beta2^t)
// undo the pull of the zero start towards 0 over the first steps.
template <typename T>
class Adam {
 public:
  // Throws InvalidArgument on options out of range or a null parameter. The parameters must
  // outlive the optimiser and keep their shapes.
  Adam(std::vector<Parameter<T>*> parameters, const AdamOptions& options);

  // One update from the gradients now held in the parameters (which it leaves as they are).
  void step();
  long steps() const { return steps_; }
  // A schedule changes the rate between steps; the running means are kept. Throws
  // InvalidArgument unless 0 < rate < 1e3.
  void set_learning_rate(double rate);
  double learning_rate() const { return options_.learning_rate; }

 private:
  std::vector<Parameter<T>*> parameters_;
  AdamOptions options_;
  std::vector<MatrixT<T>> mean_, mean_square_;  // m and v, one per parameter
  long steps_ = 0;
  double beta1_power_ = 1, beta2_power_ = 1;  // beta^t, by repeated multiplication
};

// A learning-rate schedule: peak * step / warmup during the warm-up, then a cosine from peak down
// to peak * final_fraction at step `steps`, flat after it. Steps count from 1 (a smaller step
// counts as 1).
double warmup_cosine_rate(double peak, long warmup, long steps, double final_fraction, long step);

// The global norm of the gradients, sqrt(sum over every parameter and entry of grad^2). When it
// exceeds max_norm, every gradient is multiplied by max_norm / norm, so that the norm becomes
// max_norm and the direction is kept. max_norm = 0 turns clipping off. Returns the norm before
// clipping. Throws InvalidArgument on max_norm < 0 or NaN, or a null parameter.
template <typename T>
T clip_global_norm(const std::vector<Parameter<T>*>& parameters, T max_norm);

}  // namespace attn

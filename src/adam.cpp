#include "attn/adam.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "checks.hpp"

namespace attn {
namespace {

constexpr const char* kWhere = "adam";

void check_option(const char* name, double value, double lowest, double below, bool closed_low) {
  const bool ok = (closed_low ? value >= lowest : value > lowest) && value < below;
  if (!ok) {
    detail::fail(kWhere, std::string(name) + " must be in " + (closed_low ? "[" : "(") +
                             std::to_string(lowest) + ", " + std::to_string(below) + "), got " +
                             std::to_string(value));
  }
}

}  // namespace

template <typename T>
Adam<T>::Adam(std::vector<Parameter<T>*> parameters, const AdamOptions& options)
    : parameters_(std::move(parameters)), options_(options) {
  check_option("learning_rate", options.learning_rate, 0, 1e3, false);
  check_option("beta1", options.beta1, 0, 1, true);
  check_option("beta2", options.beta2, 0, 1, true);
  check_option("epsilon", options.epsilon, 0, 1, false);
  for (size_t i = 0; i < parameters_.size(); ++i) {
    if (!parameters_[i]) detail::fail(kWhere, "parameter " + std::to_string(i) + " is null");
    const MatrixT<T>& value = parameters_[i]->value;
    mean_.push_back(MatrixT<T>::Zero(value.rows(), value.cols()));
    mean_square_.push_back(MatrixT<T>::Zero(value.rows(), value.cols()));
  }
}

template <typename T>
void Adam<T>::set_learning_rate(double rate) {
  check_option("learning_rate", rate, 0, 1e3, false);
  options_.learning_rate = rate;
}

template <typename T>
void Adam<T>::step() {
  ++steps_;
  beta1_power_ *= options_.beta1;
  beta2_power_ *= options_.beta2;
  const T beta1 = static_cast<T>(options_.beta1), beta2 = static_cast<T>(options_.beta2);
  const T rate = static_cast<T>(options_.learning_rate);
  const T epsilon = static_cast<T>(options_.epsilon);
  // The bias corrections 1 / (1 - beta^t), large over the first steps and 1 in the long run.
  const T correct1 = static_cast<T>(1.0 / (1.0 - beta1_power_));
  const T correct2 = static_cast<T>(1.0 / (1.0 - beta2_power_));
  for (size_t p = 0; p < parameters_.size(); ++p) {
    Parameter<T>& parameter = *parameters_[p];
    if (parameter.grad.rows() != parameter.value.rows() ||
        parameter.grad.cols() != parameter.value.cols() ||
        mean_[p].rows() != parameter.value.rows() || mean_[p].cols() != parameter.value.cols()) {
      detail::fail(kWhere, parameter.name + " changed shape or has no gradient of its shape (" +
                               shape_of(parameter.value.rows(), parameter.value.cols()) + ")");
    }
    T* value = parameter.value.data();
    const T* grad = parameter.grad.data();
    T* m = mean_[p].data();
    T* v = mean_square_[p].data();
    for (Eigen::Index i = 0; i < parameter.value.size(); ++i) {
      m[i] = beta1 * m[i] + (T(1) - beta1) * grad[i];
      v[i] = beta2 * v[i] + (T(1) - beta2) * (grad[i] * grad[i]);
      const T m_hat = m[i] * correct1, v_hat = v[i] * correct2;
      value[i] -= rate * m_hat / (std::sqrt(v_hat) + epsilon);
    }
  }
}

template <typename T>
T clip_global_norm(const std::vector<Parameter<T>*>& parameters, T max_norm) {
  if (!(max_norm >= T(0))) {
    detail::fail("clip global norm",
                 "max_norm must be >= 0 (0: no clipping), got " + std::to_string(max_norm));
  }
  for (size_t i = 0; i < parameters.size(); ++i) {
    if (!parameters[i]) {
      detail::fail("clip global norm", "parameter " + std::to_string(i) + " is null");
    }
  }
  // The sum of squares in double, parameter by parameter and entry by entry, in a fixed order.
  double squares = 0;
  for (const Parameter<T>* parameter : parameters) {
    const T* g = parameter->grad.data();
    for (Eigen::Index i = 0; i < parameter->grad.size(); ++i) {
      squares += static_cast<double>(g[i]) * static_cast<double>(g[i]);
    }
  }
  const double norm = std::sqrt(squares);
  if (max_norm > T(0) && norm > static_cast<double>(max_norm)) {
    const T factor = static_cast<T>(static_cast<double>(max_norm) / norm);
    for (Parameter<T>* parameter : parameters) parameter->grad *= factor;
  }
  return static_cast<T>(norm);
}

template class Adam<float>;
template class Adam<double>;
template float clip_global_norm(const std::vector<Parameter<float>*>&, float);
template double clip_global_norm(const std::vector<Parameter<double>*>&, double);

double warmup_cosine_rate(double peak, long warmup, long steps, double final_fraction, long step) {
  step = std::max(step, 1L);
  if (step <= warmup) return peak * static_cast<double>(step) / static_cast<double>(warmup);
  const double span = static_cast<double>(std::max(1L, steps - warmup));
  const double t = std::min(1.0, static_cast<double>(step - warmup) / span);
  const double pi = 3.14159265358979323846;
  return peak * (final_fraction + (1 - final_fraction) * 0.5 * (1 + std::cos(pi * t)));
}

}  // namespace attn

// Shared by the gradient tests: central differences in double precision against a backward pass.
#pragma once

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/layers.hpp"
#include "attn/random.hpp"

namespace test {

using MatD = attn::MatrixT<double>;
using ParamD = attn::Parameter<double>;

// (rows, cols) of seeded unit-normal values, in double.
inline MatD random_d(int rows, int cols, std::uint64_t seed) {
  return attn::unit_normal(rows, cols, seed).cast<double>();
}

// Central differences with step h = 1e-5 have a truncation error of about h^2 |f'''| ~ 1e-10 and a
// rounding error of about 1e-16 |f| / h ~ 1e-11 for the O(1) losses used here. So a right analytic
// gradient agrees to about 1e-9 relative where it is large, and to about 1e-10 absolute where it
// is tiny; a wrong one (a missing term, a transpose, a wrong scale) is off by far more. The bound,
// |a - n| / max(|a| + |n|, kFloor) < 1e-6, is relative for gradients above 1e-3 and an absolute
// 1e-9 below.
constexpr double kStep = 1e-5;
constexpr double kRelativeTolerance = 1e-6;
constexpr double kFloor = 1e-3;

struct GradientReport {
  double worst = 0;        // largest relative error |a - n| / max(|a| + |n|, kFloor)
  Eigen::Index index = 0;  // where (row-major index into the matrix)
  double analytic = 0, numeric = 0;
};

// For every entry x_i of `value`: numeric_i = (loss(x + h e_i) - loss(x - h e_i)) / (2 h), compared
// with analytic(i). `loss` must read `value` each time it is called.
template <typename Loss>
GradientReport compare_gradient(MatD& value, const MatD& analytic, Loss&& loss) {
  REQUIRE(analytic.rows() == value.rows());
  REQUIRE(analytic.cols() == value.cols());
  GradientReport report;
  for (Eigen::Index i = 0; i < value.size(); ++i) {
    const double saved = value.data()[i];
    value.data()[i] = saved + kStep;
    const double up = loss();
    value.data()[i] = saved - kStep;
    const double down = loss();
    value.data()[i] = saved;
    const double numeric = (up - down) / (2 * kStep);
    const double a = analytic.data()[i];
    const double error = std::abs(a - numeric) / std::max(std::abs(a) + std::abs(numeric), kFloor);
    if (error > report.worst || i == 0) report = {error, i, a, numeric};
  }
  return report;
}

// Checks one gradient, naming it and the worst entry on failure.
template <typename Loss>
void check_gradient(const std::string& name, MatD& value, const MatD& analytic, Loss&& loss) {
  const GradientReport r = compare_gradient(value, analytic, loss);
  INFO(name << ": worst relative error " << r.worst << " at entry " << r.index << " (analytic "
            << r.analytic << ", central difference " << r.numeric << ")");
  CHECK(r.worst < kRelativeTolerance);
}

// Checks the gradient a backward pass left in each parameter against central differences of
// loss(), naming each "dL/d<name>".
template <typename Loss>
void check_parameter_gradients(const std::vector<ParamD*>& parameters, Loss&& loss) {
  for (ParamD* p : parameters) {
    const MatD analytic = p->grad;
    check_gradient("dL/d" + p->name, p->value, analytic, loss);
  }
}

// A model's backward pass against central differences, parameter by parameter: zeroes its
// gradients, adds those of `pass` (a forward pass of the model), and checks every parameter's
// (each must have one) against loss(), which must compute that same pass's loss afresh.
template <typename Model, typename Pass, typename Loss>
void check_every_gradient(Model& model, const Pass& pass, Loss&& loss) {
  model.zero_grad();
  model.backward(pass);
  for (ParamD* p : model.parameters()) {
    const MatD analytic = p->grad;
    REQUIRE(analytic.size() > 0);
    check_gradient(p->name, p->value, analytic, loss);
  }
}

// sum(y * r): a scalar loss whose gradient with respect to y is r, so that a random r tests every
// entry of a backward pass with different weights.
inline double weighted_sum(const MatD& y, const MatD& r) { return (y.array() * r.array()).sum(); }

}  // namespace test

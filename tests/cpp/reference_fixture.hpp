// Shared by the tests against PyTorch's fixtures (unit-*-reference.cpp, from
// tools/make_*_fixture.py): reading the fixture's JSON into matrices and named parameters, and
// measuring how far a matrix is from the fixture's.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "attn/layers.hpp"
#include "attn/matrix.hpp"

namespace test {

// at() throughout: a missing key or index throws (operator[] on a const document does not check).
using nlohmann::json;

inline std::vector<double> numbers(const json& array) { return array.get<std::vector<double>>(); }

// values: (rows * cols) row-major -> (rows, cols) in T.
template <typename T>
attn::MatrixT<T> matrix(const std::vector<double>& values, Eigen::Index rows, Eigen::Index cols) {
  REQUIRE(static_cast<Eigen::Index>(values.size()) == rows * cols);
  attn::MatrixT<T> m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<T>(values[i]);
  return m;
}

// Every parameter set by name from stored ({name: {"shape": [rows, cols], "value": [...]}}): each
// must be there with the shape the core gives it, and stored holds nothing more.
template <typename T>
void set_parameters(const std::vector<attn::Parameter<T>*>& own, const json& stored) {
  INFO("the model has " << own.size() << " parameters, the fixture " << stored.size());
  REQUIRE(own.size() == stored.size());
  for (attn::Parameter<T>* p : own) {
    if (!stored.contains(p->name)) FAIL("the fixture has no parameter " << p->name);
    const json& shape = stored.at(p->name).at("shape");
    const int rows = shape.at(0).get<int>(), cols = shape.at(1).get<int>();
    if (rows != p->value.rows() || cols != p->value.cols()) {
      FAIL(p->name << " is (" << rows << ", " << cols << ") in the fixture but (" << p->value.rows()
                   << ", " << p->value.cols() << ") in the model");
    }
    p->value = matrix<T>(numbers(stored.at(p->name).at("value")), rows, cols);
  }
}

// Largest |a - b| / max(|b|, floor) with floor = max(floor_share * max |b|, smallest_floor): with
// a share of 1e-2, relative entry by entry down to a hundredth of the largest entry (absolute
// below that); with a share of 1, relative to the largest entry of the matrix (normwise).
template <typename T>
double worst_error(const attn::MatrixT<T>& actual, const std::vector<double>& expected,
                   double floor_share, double smallest_floor = 1e-12) {
  REQUIRE(static_cast<Eigen::Index>(expected.size()) == actual.size());
  double top = 0;
  for (const double e : expected) top = std::max(top, std::abs(e));
  const double floor = std::max(floor_share * top, smallest_floor);
  double worst = 0;
  for (Eigen::Index i = 0; i < actual.size(); ++i) {
    const double a = static_cast<double>(actual.data()[i]), e = expected[static_cast<size_t>(i)];
    worst = std::max(worst, std::abs(a - e) / std::max(std::abs(e), floor));
  }
  return worst;
}

// Largest |a - b| over the entries.
template <typename T>
double largest_difference(const attn::MatrixT<T>& actual, const std::vector<double>& expected) {
  REQUIRE(static_cast<Eigen::Index>(expected.size()) == actual.size());
  double worst = 0;
  for (Eigen::Index i = 0; i < actual.size(); ++i) {
    worst = std::max(
        worst, std::abs(static_cast<double>(actual.data()[i]) - expected[static_cast<size_t>(i)]));
  }
  return worst;
}

// An attention layer's key bias b_k (its name ends in ".b_k"): it shifts every score of a query
// by the same q . b_k, which softmax ignores, so its gradient is 0 in exact arithmetic and both
// sides hold only rounding noise.
inline bool is_key_bias(const std::string& name) {
  return name.size() > 4 && name.compare(name.size() - 4, 4, ".b_k") == 0;
}

// A key bias's gradient: PyTorch's below 1e-12 and ours below the tolerance, both noise.
template <typename T>
void check_key_bias_gradient(const attn::Parameter<T>& p, const std::vector<double>& expected,
                             double tolerance) {
  double top = 0;
  for (const double e : expected) top = std::max(top, std::abs(e));
  INFO("dL/d" << p.name << ": PyTorch's largest " << top << ", ours "
              << p.grad.cwiseAbs().maxCoeff());
  CHECK(top < 1e-12);
  CHECK(p.grad.cwiseAbs().maxCoeff() < tolerance);
}

}  // namespace test

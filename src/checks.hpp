// Input checks shared by the core's functions. Private to src/.
#pragma once

#include <cmath>
#include <string>

#include "attn/matrix.hpp"
#include "simd.hpp"

namespace attn::detail {

[[noreturn]] inline void fail(const char* where, const std::string& what) {
  throw InvalidArgument(std::string(where) + ": " + what);
}

// Throws unless lowest <= value <= highest, naming the value: "<name> must be between <lowest>
// and <highest>, got <value>".
inline void check_range(const char* where, const char* name, long long value, long long lowest,
                        long long highest) {
  if (value < lowest || value > highest) {
    fail(where, std::string(name) + " must be between " + std::to_string(lowest) + " and " +
                    std::to_string(highest) + ", got " + std::to_string(value));
  }
}

// Throws unless m is (rows, cols): "<name> is <shape> but must be <shape>".
template <typename T>
void require_shape(const char* where, const char* name, const MatrixT<T>& m, Eigen::Index rows,
                   Eigen::Index cols) {
  if (m.rows() != rows || m.cols() != cols) {
    fail(where, std::string(name) + " is " + shape_of(m.rows(), m.cols()) + " but must be " +
                    shape_of(rows, cols));
  }
}

// Throws unless every entry of m is finite.
template <typename Derived>
void require_finite(const char* where, const char* name, const Eigen::DenseBase<Derived>& m) {
  if (!m.allFinite()) {
    fail(where, std::string(name) + " contains NaN or infinity; every value must be finite");
  }
}

// The same for a row-major matrix, row by row with vector instructions (this check runs on every
// input of the hot attention path).
inline void require_finite(const char* where, const char* name, const MatrixView& m) {
  // Rows that follow each other without a gap are checked in one go.
  const bool contiguous = m.outerStride() == m.cols();
  const Eigen::Index rows = contiguous ? 1 : m.rows();
  const long per_row = static_cast<long>(contiguous ? m.size() : m.cols());
  for (Eigen::Index i = 0; i < rows; ++i) {
    if (!simd::all_finite(m.row(i).data(), per_row)) {
      fail(where, std::string(name) + " contains NaN or infinity; every value must be finite");
    }
  }
}

// The same for a whole float matrix, whose entries lie contiguous: one pass of vector
// instructions over all of them.
inline void require_finite(const char* where, const char* name, const Matrix& m) {
  if (!simd::all_finite(m.data(), static_cast<long>(m.size()))) {
    fail(where, std::string(name) + " contains NaN or infinity; every value must be finite");
  }
}

// Throws unless m has at least one row and one column.
template <typename Derived>
void require_non_empty(const char* where, const char* name, const Eigen::DenseBase<Derived>& m) {
  if (m.rows() == 0 || m.cols() == 0) {
    fail(where, std::string(name) + " is empty (" + shape_of(m.rows(), m.cols()) +
                    "); it needs at least one row and one column");
  }
}

inline void require_positive_temperature(const char* where, float temperature) {
  if (!(temperature > 0.0f) || !std::isfinite(temperature)) {
    fail(where, "temperature must be a finite number > 0, got " + std::to_string(temperature));
  }
}

}  // namespace attn::detail

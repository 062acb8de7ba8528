// Matrix types and the error every function throws on bad input.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace attn {

// Row-major, row-vector convention throughout: a sequence of n vectors of size d is an (n, d)
// matrix, one vector per row, and a projection is X · W.
using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
// The same for any scalar: float to train, double for the gradient checks.
template <typename T>
using MatrixT = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::VectorXf;
// A read-only view of a row-major matrix: a Matrix, a block of one, or a Map over raw memory.
using MatrixView = Eigen::Ref<const Matrix>;

// One flag per key: true (non-zero) means the key is padding and no query may attend to it.
using KeyPadding = std::vector<std::uint8_t>;

// Thrown for every kind of bad input: a shape mismatch, an empty sequence, a non-finite value, an
// impossible mask. The message names the function, the argument and the shapes involved.
class InvalidArgument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// "3x4", for messages.
std::string shape_of(Eigen::Index rows, Eigen::Index cols);
std::string shape_of(const MatrixView& m);

}  // namespace attn

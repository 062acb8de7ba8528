#include "attn/matrix.hpp"

namespace attn {

std::string shape_of(Eigen::Index rows, Eigen::Index cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

std::string shape_of(const MatrixView& m) { return shape_of(m.rows(), m.cols()); }

}  // namespace attn

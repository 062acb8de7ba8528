#include "attn/layers.hpp"

#include <utility>

#include "checks.hpp"
#include "dense_linear.hpp"
#include "ordered_math.hpp"

namespace attn {

template <typename T>
Parameter<T>::Parameter(std::string name, MatrixT<T> value)
    : name(std::move(name)), value(std::move(value)) {
  zero_grad();
}

// x: (n, d_in), w: (d_in, d_out), b: (1, d_out) -> (n, d_out)
// values: (P), shapes: (P)
template <typename T>
void set_parameter_values(const std::vector<Parameter<T>*>& parameters,
                          const std::vector<std::pair<int, int>>& shapes,
                          std::vector<MatrixT<T>> values, const char* where) {
  if (values.size() != parameters.size()) {
    detail::fail(where, "the weights hold " + std::to_string(values.size()) +
                            " parameters, the model " + std::to_string(parameters.size()));
  }
  for (size_t i = 0; i < parameters.size(); ++i) {
    if (values[i].rows() != shapes[i].first || values[i].cols() != shapes[i].second) {
      detail::fail(where, "parameter " + parameters[i]->name + " is " +
                              shape_of(values[i].rows(), values[i].cols()) + " but must be " +
                              shape_of(shapes[i].first, shapes[i].second));
    }
    parameters[i]->value = std::move(values[i]);
  }
}

template <typename T>
LinearPass<T> linear_forward(MatrixT<T> x, const Parameter<T>& w, const Parameter<T>* b) {
  return detail::linear_layer_forward<detail::OrderedProducts>(std::move(x), w, b);
}

// dy: (n, d_out) -> (n, d_in)
template <typename T>
MatrixT<T> linear_backward(const LinearPass<T>& pass, const MatrixT<T>& dy, Parameter<T>& w,
                           Parameter<T>* b) {
  return detail::linear_layer_backward<detail::OrderedProducts>(pass, dy, w, b);
}

// x: (n, d) -> (n, d)
template <typename T>
TanhPass<T> tanh_forward(const MatrixT<T>& x) {
  TanhPass<T> pass;
  pass.y.resize(x.rows(), x.cols());
  for (Eigen::Index i = 0; i < x.size(); ++i) pass.y.data()[i] = detail::tanh_of(x.data()[i]);
  return pass;
}

// dy: (n, d) -> (n, d)
template <typename T>
MatrixT<T> tanh_backward(const TanhPass<T>& pass, const MatrixT<T>& dy) {
  detail::require_shape("tanh backward", "dy", dy, pass.y.rows(), pass.y.cols());
  // d tanh(x) / dx = 1 - tanh(x)^2, from the output alone.
  return (dy.array() * (T(1) - pass.y.array().square())).matrix();
}

// ids: (n), table: (vocab, d) -> (n, d)
template <typename T>
EmbeddingPass<T> embedding_forward(const std::vector<int>& ids, const Parameter<T>& table,
                                   int padding) {
  const auto vocab = table.value.rows();
  EmbeddingPass<T> pass;
  pass.ids = ids;
  pass.y = MatrixT<T>::Zero(static_cast<Eigen::Index>(ids.size()), table.value.cols());
  for (size_t i = 0; i < ids.size(); ++i) {
    const int id = ids[i];
    if (id < 0 || id >= vocab) {
      detail::fail("embedding forward", "ids[" + std::to_string(i) + "] = " + std::to_string(id) +
                                            " is outside the table of " + std::to_string(vocab) +
                                            " rows (" + table.name + " is " +
                                            shape_of(vocab, table.value.cols()) + ")");
    }
    if (id != padding) pass.y.row(static_cast<Eigen::Index>(i)) = table.value.row(id);
  }
  return pass;
}

// dy: (n, d)
template <typename T>
void embedding_backward(const EmbeddingPass<T>& pass, const MatrixT<T>& dy, Parameter<T>& table,
                        int padding) {
  detail::require_shape("embedding backward", "dy", dy, pass.y.rows(), pass.y.cols());
  // A row used twice gets both gradients, added in the order of the ids.
  for (size_t i = 0; i < pass.ids.size(); ++i) {
    if (pass.ids[i] != padding) table.grad.row(pass.ids[i]) += dy.row(static_cast<Eigen::Index>(i));
  }
}

// word_vectors: (words, width)
template <typename T>
void check_frozen_word_vectors(const MatrixT<T>* word_vectors, int words, int width,
                               const char* where) {
  if (!word_vectors) detail::fail(where, "the word vectors are missing");
  if (word_vectors->rows() != words || word_vectors->cols() != width) {
    detail::fail(where, "the word vectors are " +
                            shape_of(word_vectors->rows(), word_vectors->cols()) +
                            " but the config says " + shape_of(words, width));
  }
}

// ids: (n) -> (n, d)
template <typename T>
MatrixT<T> frozen_embedding_forward(const std::vector<int>& ids, const MatrixT<T>& word_vectors,
                                    const Parameter<T>& unknown) {
  const Eigen::Index unknown_id = word_vectors.rows();
  MatrixT<T> e = MatrixT<T>::Zero(static_cast<Eigen::Index>(ids.size()), word_vectors.cols());
  for (size_t i = 0; i < ids.size(); ++i) {
    const auto r = static_cast<Eigen::Index>(i);
    if (ids[i] == unknown_id) {
      e.row(r) = unknown.value.row(0);
    } else if (ids[i] >= 0) {
      e.row(r) = word_vectors.row(ids[i]);
    }
  }
  return e;
}

// dy: (n, d)
template <typename T>
void frozen_embedding_backward(const std::vector<int>& ids, const MatrixT<T>& dy,
                               const MatrixT<T>& word_vectors, Parameter<T>& unknown) {
  const Eigen::Index unknown_id = word_vectors.rows();
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] == unknown_id) unknown.grad.row(0) += dy.row(static_cast<Eigen::Index>(i));
  }
}

template <typename T>
MatrixT<T> dropout_forward(MatrixT<T>& x, double rate, Rng& rng) {
  if (!(rate >= 0 && rate < 1)) detail::fail("dropout", "the rate must be in [0, 1)");
  if (rate == 0) return {};
  const T keep = static_cast<T>(1 / (1 - rate));
  MatrixT<T> mask(x.rows(), x.cols());
  for (Eigen::Index i = 0; i < mask.size(); ++i) {
    mask.data()[i] = rng.uniform() < rate ? T(0) : keep;
  }
  x.array() *= mask.array();
  return mask;
}

template <typename T>
void dropout_backward(const MatrixT<T>& mask, MatrixT<T>& dy) {
  if (mask.size() == 0) return;
  detail::require_shape("dropout backward", "dy", dy, mask.rows(), mask.cols());
  dy.array() *= mask.array();
}

#define ATTN_INSTANTIATE_LAYERS(T)                                                                \
  template struct Parameter<T>;                                                                   \
  template void set_parameter_values(const std::vector<Parameter<T>*>&,                           \
                                     const std::vector<std::pair<int, int>>&,                     \
                                     std::vector<MatrixT<T>>, const char*);                       \
  template LinearPass<T> linear_forward(MatrixT<T>, const Parameter<T>&, const Parameter<T>*);    \
  template MatrixT<T> linear_backward(const LinearPass<T>&, const MatrixT<T>&, Parameter<T>&,     \
                                      Parameter<T>*);                                             \
  template TanhPass<T> tanh_forward(const MatrixT<T>&);                                           \
  template MatrixT<T> tanh_backward(const TanhPass<T>&, const MatrixT<T>&);                       \
  template EmbeddingPass<T> embedding_forward(const std::vector<int>&, const Parameter<T>&, int); \
  template void embedding_backward(const EmbeddingPass<T>&, const MatrixT<T>&, Parameter<T>&,     \
                                   int);                                                          \
  template void check_frozen_word_vectors(const MatrixT<T>*, int, int, const char*);              \
  template MatrixT<T> frozen_embedding_forward(const std::vector<int>&, const MatrixT<T>&,        \
                                               const Parameter<T>&);                              \
  template void frozen_embedding_backward(const std::vector<int>&, const MatrixT<T>&,             \
                                          const MatrixT<T>&, Parameter<T>&);                      \
  template MatrixT<T> dropout_forward(MatrixT<T>&, double, Rng&);                                 \
  template void dropout_backward(const MatrixT<T>&, MatrixT<T>&);

ATTN_INSTANTIATE_LAYERS(float)
ATTN_INSTANTIATE_LAYERS(double)

}  // namespace attn

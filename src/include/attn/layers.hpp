// Trainable layers, forward and backward: linear, tanh and embedding lookup. Templates on the
// scalar: float for training, double for the gradient checks (both instantiated in layers.cpp).
//
// Every layer is a pair of functions. The forward function returns a small "pass" struct with its
// output and whatever the backward function needs; the backward function takes that pass and
// dL/d(output), returns dL/d(input) and ADDS the parameters' gradients into Parameter::grad, so one
// batch's gradients accumulate over every use of a parameter until they are zeroed.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "attn/matrix.hpp"
#include "attn/random.hpp"

namespace attn {

// A trainable matrix and its gradient, of the same shape. A bias is a (1, d) matrix.
template <typename T>
struct Parameter {
  std::string name;
  MatrixT<T> value;
  MatrixT<T> grad;  // dL/d(value), accumulated by the backward functions

  Parameter() = default;
  Parameter(std::string name, MatrixT<T> value);
  void zero_grad() { grad.setZero(value.rows(), value.cols()); }
};

// parameters: P of them, shapes: (P) their (rows, cols), values: (P) -> each value moved into its
// parameter: how a model made from a weights file takes its numbers. Throws InvalidArgument, naming
// `where`, on another count of values or a value of another shape (naming its parameter).
template <typename T>
void set_parameter_values(const std::vector<Parameter<T>*>& parameters,
                          const std::vector<std::pair<int, int>>& shapes,
                          std::vector<MatrixT<T>> values, const char* where);

// -- Linear: y = x W + b ---------------------------------------------------------------------

template <typename T>
struct LinearPass {
  MatrixT<T> x;  // (n, d_in) the input, kept for dL/dW
  MatrixT<T> y;  // (n, d_out)
};

// x: (n, d_in), w: (d_in, d_out), b: (1, d_out) or null for no bias -> y: (n, d_out).
// Throws InvalidArgument when the shapes do not fit.
template <typename T>
LinearPass<T> linear_forward(MatrixT<T> x, const Parameter<T>& w, const Parameter<T>* b);

// dy: (n, d_out) -> dx: (n, d_in) = dy W^T; adds x^T dy (d_in, d_out) into w.grad and the column
// sums of dy (1, d_out) into b->grad.
template <typename T>
MatrixT<T> linear_backward(const LinearPass<T>& pass, const MatrixT<T>& dy, Parameter<T>& w,
                           Parameter<T>* b);

// -- Tanh: y = tanh(x), elementwise -----------------------------------------------------------

template <typename T>
struct TanhPass {
  MatrixT<T> y;  // (n, d), all backward needs: tanh'(x) = 1 - y^2
};

// x: (n, d) -> y: (n, d)
template <typename T>
TanhPass<T> tanh_forward(const MatrixT<T>& x);

// dy: (n, d) -> dx: (n, d) = dy * (1 - y^2)
template <typename T>
MatrixT<T> tanh_backward(const TanhPass<T>& pass, const MatrixT<T>& dy);

// -- Embedding lookup: row i of y is row ids[i] of the table -----------------------------------

template <typename T>
struct EmbeddingPass {
  std::vector<int> ids;  // (n)
  MatrixT<T> y;          // (n, d)
};

// ids: (n) in [0, vocab), table: (vocab, d) -> y: (n, d). Id `padding` (0 in the models) is a
// padded slot: its row of y is zero and it never gets a gradient. Pass padding = -1 for none.
template <typename T>
EmbeddingPass<T> embedding_forward(const std::vector<int>& ids, const Parameter<T>& table,
                                   int padding = 0);

// dy: (n, d): adds row i of dy into row ids[i] of table.grad, skipping padded ids. Nothing flows
// further back (ids are not differentiable), so nothing is returned.
template <typename T>
void embedding_backward(const EmbeddingPass<T>& pass, const MatrixT<T>& dy, Parameter<T>& table,
                        int padding = 0);

// -- Frozen word vectors with a learned unknown row (the translators' English inputs) ----------

// word_vectors: (words, width) as a model's config gives them. Throws InvalidArgument, naming
// `where`, when they are missing (null) or of another shape.
template <typename T>
void check_frozen_word_vectors(const MatrixT<T>* word_vectors, int words, int width,
                               const char* where);

// ids: (n) in [-1, V], word_vectors: (V, d) frozen, unknown: (1, d) -> (n, d): row i is row ids[i]
// of the word vectors, the unknown row for id V (the word outside them), zero for -1 (padding).
// The caller checks the ids.
template <typename T>
MatrixT<T> frozen_embedding_forward(const std::vector<int>& ids, const MatrixT<T>& word_vectors,
                                    const Parameter<T>& unknown);

// ids: (n) as above, dy: (n, d): adds the rows of dy at id V into unknown.grad, in the order of the
// ids; the word vectors are frozen and padding gets nothing, so nothing is returned.
template <typename T>
void frozen_embedding_backward(const std::vector<int>& ids, const MatrixT<T>& dy,
                               const MatrixT<T>& word_vectors, Parameter<T>& unknown);

// -- Dropout: while training, each entry kept with probability 1 - rate and scaled by 1 / (1 -
// rate) (inverted dropout: the expected value is x, so a model evaluates on x itself)
// ------------------

// x: (n, d), changed in place; rate in [0, 1). Draws one uniform number an entry, row by row, from
// rng (an entry is kept when the number is at least rate) -> the mask (n, d) of 0 and
// 1 / (1 - rate) that x was multiplied by, or an empty matrix and no draw when rate is 0. Throws
// InvalidArgument on a rate outside [0, 1).
template <typename T>
MatrixT<T> dropout_forward(MatrixT<T>& x, double rate, Rng& rng);

// dy: (n, d), changed in place to dx = dy * mask; nothing changes for an empty mask.
template <typename T>
void dropout_backward(const MatrixT<T>& mask, MatrixT<T>& dy);

}  // namespace attn

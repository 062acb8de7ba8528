#include "attn/gru.hpp"

#include <cmath>
#include <utility>

#include "attn/random.hpp"
#include "checks.hpp"
#include "initial_weights.hpp"
#include "ordered_math.hpp"

namespace attn {
namespace {

// The recurrent half's shapes: w_h (H, 3H), b_h (1, 3H).
template <typename T>
void require_recurrent_shapes(const char* where, const GruParameters<T>& p) {
  const Eigen::Index h = p.w_h.value.rows();
  if (h < 1) detail::fail(where, p.w_h.name + " is empty; the state needs a width H >= 1");
  detail::require_shape(where, p.w_h.name.c_str(), p.w_h.value, h, 3 * h);
  detail::require_shape(where, p.b_h.name.c_str(), p.b_h.value, 1, 3 * h);
}

// 1 / (1 + e^-x) from the training exp (the same bits in every build for float).
template <typename T>
T sigmoid_of(T x) {
  return T(1) / (T(1) + detail::exp_of(-x));
}

bool is_active(const std::vector<unsigned char>& active, Eigen::Index b) {
  return active.empty() || active[static_cast<size_t>(b)] != 0;
}

}  // namespace

template <typename T>
GruParameters<T> make_gru_parameters(const std::string& name, int input_width, int state_width,
                                     std::uint64_t seed) {
  if (input_width < 1 || state_width < 1) {
    detail::fail("make_gru_parameters",
                 "widths must be at least 1, got d_in = " + std::to_string(input_width) +
                     " and H = " + std::to_string(state_width));
  }
  // Uniform in +-1/sqrt(H) (the usual GRU initialisation), each matrix from its own derived seed.
  const double limit = 1.0 / std::sqrt(static_cast<double>(state_width));
  const int gates = 3 * state_width;
  GruParameters<T> p;
  p.w_x = Parameter<T>(name + ".w_x",
                       detail::uniform_weight<T>(input_width, gates, limit, derive_seed(seed, 1)));
  p.b_x =
      Parameter<T>(name + ".b_x", detail::uniform_weight<T>(1, gates, limit, derive_seed(seed, 2)));
  p.w_h = Parameter<T>(name + ".w_h",
                       detail::uniform_weight<T>(state_width, gates, limit, derive_seed(seed, 3)));
  p.b_h =
      Parameter<T>(name + ".b_h", detail::uniform_weight<T>(1, gates, limit, derive_seed(seed, 4)));
  return p;
}

// gx: (B, 3H), h_prev: (B, H) -> h: (B, H)
template <typename T>
GruStepPass<T> gru_step_forward(const MatrixT<T>& gx, MatrixT<T> h_prev, const GruParameters<T>& p,
                                std::vector<unsigned char> active) {
  constexpr const char* kWhere = "gru step forward";
  require_recurrent_shapes(kWhere, p);
  const Eigen::Index n_state = p.w_h.value.rows(), batch = h_prev.rows();
  if (batch < 1) detail::fail(kWhere, "h_prev has no rows; a step needs at least one sequence");
  detail::require_shape(kWhere, "h_prev", h_prev, batch, n_state);
  detail::require_shape(kWhere, "gx", gx, batch, 3 * n_state);
  if (!active.empty() && active.size() != static_cast<size_t>(batch)) {
    detail::fail(kWhere, "active has " + std::to_string(active.size()) + " flags but there are " +
                             std::to_string(batch) + " sequences");
  }

  // 1. The state's share of all three gates at once: gh = h_prev W_h + b_h, (B, 3H).
  MatrixT<T> gh = detail::product(h_prev, p.w_h.value);
  gh.rowwise() += p.b_h.value.row(0);

  GruStepPass<T> pass;
  pass.r.resize(batch, n_state);
  pass.z.resize(batch, n_state);
  pass.n.resize(batch, n_state);
  pass.hn.resize(batch, n_state);
  pass.h.resize(batch, n_state);
  for (Eigen::Index b = 0; b < batch; ++b) {
    const bool on = is_active(active, b);
    for (Eigen::Index j = 0; j < n_state; ++j) {
      // 2. The gates: the reset gate scales the state's share of the candidate only.
      const T r = sigmoid_of(gx(b, j) + gh(b, j));
      const T z = sigmoid_of(gx(b, n_state + j) + gh(b, n_state + j));
      const T hn = gh(b, 2 * n_state + j);
      const T n = detail::tanh_of(gx(b, 2 * n_state + j) + r * hn);
      pass.r(b, j) = r;
      pass.z(b, j) = z;
      pass.n(b, j) = n;
      pass.hn(b, j) = hn;
      // 3. The update gate mixes the old state and the candidate; a padded step keeps the state.
      pass.h(b, j) = on ? (T(1) - z) * n + z * h_prev(b, j) : h_prev(b, j);
    }
  }
  pass.h_prev = std::move(h_prev);
  pass.active = std::move(active);
  return pass;
}

// dh: (B, H) -> dh_prev: (B, H); d_gx: (B, 3H)
template <typename T>
MatrixT<T> gru_step_backward(const GruStepPass<T>& pass, const MatrixT<T>& dh, GruParameters<T>& p,
                             MatrixT<T>* d_gx) {
  constexpr const char* kWhere = "gru step backward";
  const Eigen::Index batch = pass.h.rows(), n_state = pass.h.cols();
  detail::require_shape(kWhere, "dh", dh, batch, n_state);
  detail::require_shape(kWhere, p.w_h.name.c_str(), p.w_h.value, n_state, 3 * n_state);
  if (!d_gx) detail::fail(kWhere, "d_gx must point to a matrix for dL/dgx");

  // d_gate holds dL/d(pre-activation) of r and z, and dL/dgx_n of the candidate; d_gh the same
  // for the state's share, whose candidate column is dL/dhn (the reset gate sits between them).
  d_gx->setZero(batch, 3 * n_state);
  MatrixT<T> d_gh = MatrixT<T>::Zero(batch, 3 * n_state);
  MatrixT<T> dh_prev(batch, n_state);
  for (Eigen::Index b = 0; b < batch; ++b) {
    if (!is_active(pass.active, b)) {
      dh_prev.row(b) = dh.row(b);  // h = h_prev: the gradient passes straight through
      continue;
    }
    for (Eigen::Index j = 0; j < n_state; ++j) {
      const T r = pass.r(b, j), z = pass.z(b, j), n = pass.n(b, j);
      const T g = dh(b, j);
      // h = (1 - z) n + z h_prev
      dh_prev(b, j) = g * z;
      const T dz = g * (pass.h_prev(b, j) - n);
      const T dn = g * (T(1) - z);
      // n = tanh(a_n), a_n = gx_n + r hn
      const T da_n = dn * (T(1) - n * n);
      const T dr = da_n * pass.hn(b, j);
      // r, z = sigmoid(a): sigmoid' = s (1 - s)
      const T da_r = dr * r * (T(1) - r);
      const T da_z = dz * z * (T(1) - z);
      (*d_gx)(b, j) = da_r;
      (*d_gx)(b, n_state + j) = da_z;
      (*d_gx)(b, 2 * n_state + j) = da_n;
      d_gh(b, j) = da_r;
      d_gh(b, n_state + j) = da_z;
      d_gh(b, 2 * n_state + j) = da_n * r;
    }
  }
  // gh = h_prev W_h + b_h: W_h and b_h get their gradients, and h_prev its second path.
  detail::add_transposed_product(p.w_h.grad, pass.h_prev, d_gh);
  detail::add_column_sums(p.b_h.grad, d_gh);
  dh_prev += detail::product_transposed(d_gh, p.w_h.value);
  return dh_prev;
}

// x: (L B, d_in), h0: (B, H) -> states: (L B, H), last: (B, H)
template <typename T>
GruSequencePass<T> gru_sequence_forward(MatrixT<T> x, const std::vector<int>& lengths, bool reverse,
                                        const GruParameters<T>& p, MatrixT<T> h0) {
  constexpr const char* kWhere = "gru sequence forward";
  const auto batch = static_cast<Eigen::Index>(lengths.size());
  if (batch < 1) detail::fail(kWhere, "lengths is empty; it needs one length per sequence");
  if (x.rows() % batch != 0 || x.rows() == 0) {
    detail::fail(kWhere, "x has " + std::to_string(x.rows()) + " rows, which is not a whole " +
                             "number of steps of " + std::to_string(batch) + " sequences");
  }
  const Eigen::Index steps = x.rows() / batch, n_state = p.w_h.value.rows();
  for (size_t b = 0; b < lengths.size(); ++b) {
    if (lengths[b] < 1 || lengths[b] > steps) {
      detail::fail(kWhere, "lengths[" + std::to_string(b) + "] = " + std::to_string(lengths[b]) +
                               " must be between 1 and the " + std::to_string(steps) + " steps");
    }
  }
  detail::require_shape(kWhere, "h0", h0, batch, n_state);
  detail::require_shape(kWhere, p.w_x.name.c_str(), p.w_x.value, x.cols(), 3 * n_state);

  GruSequencePass<T> pass;
  pass.batch = static_cast<int>(batch);
  pass.steps = static_cast<int>(steps);
  pass.reverse = reverse;
  pass.lengths = lengths;
  // 1. Every step's input share at once: one (L B, d_in) x (d_in, 3H) product.
  pass.input = linear_forward(std::move(x), p.w_x, &p.b_x);
  pass.states = MatrixT<T>::Zero(steps * batch, n_state);
  pass.cells.reserve(static_cast<size_t>(steps));
  // 2. The steps in reading order; a sequence that has ended (or, in reverse, not yet begun)
  // keeps its state through the padded steps.
  MatrixT<T> h = std::move(h0);
  for (Eigen::Index s = 0; s < steps; ++s) {
    const Eigen::Index t = reverse ? steps - 1 - s : s;
    std::vector<unsigned char> active(static_cast<size_t>(batch));
    for (Eigen::Index b = 0; b < batch; ++b) active[b] = t < lengths[b] ? 1 : 0;
    const MatrixT<T> gx = pass.input.y.middleRows(t * batch, batch);
    pass.cells.push_back(gru_step_forward(gx, std::move(h), p, active));
    h = pass.cells.back().h;
    for (Eigen::Index b = 0; b < batch; ++b) {
      if (active[b]) pass.states.row(t * batch + b) = h.row(b);
    }
  }
  pass.last = std::move(h);
  return pass;
}

// d_states: (L B, H), d_last: (B, H) -> dx: (L B, d_in)
template <typename T>
MatrixT<T> gru_sequence_backward(const GruSequencePass<T>& pass, const MatrixT<T>& d_states,
                                 const MatrixT<T>& d_last, GruParameters<T>& p, MatrixT<T>* d_h0) {
  constexpr const char* kWhere = "gru sequence backward";
  const Eigen::Index batch = pass.batch, steps = pass.steps, n_state = pass.states.cols();
  detail::require_shape(kWhere, "d_states", d_states, steps * batch, n_state);
  detail::require_shape(kWhere, "d_last", d_last, batch, n_state);

  MatrixT<T> d_gx_all(steps * batch, 3 * n_state);
  MatrixT<T> dh = d_last, d_gx;
  // The steps in the opposite order to the forward pass: each state's gradient is what reads it
  // directly (d_states) plus what flows back from the step after it.
  for (Eigen::Index s = steps - 1; s >= 0; --s) {
    const Eigen::Index t = pass.reverse ? steps - 1 - s : s;
    const GruStepPass<T>& cell = pass.cells[static_cast<size_t>(s)];
    for (Eigen::Index b = 0; b < batch; ++b) {
      if (cell.active[static_cast<size_t>(b)]) dh.row(b) += d_states.row(t * batch + b);
    }
    dh = gru_step_backward(cell, dh, p, &d_gx);
    d_gx_all.middleRows(t * batch, batch) = d_gx;
  }
  if (d_h0) *d_h0 = dh;
  return linear_backward(pass.input, d_gx_all, p.w_x, &p.b_x);
}

#define ATTN_INSTANTIATE_GRU(T)                                                                    \
  template GruParameters<T> make_gru_parameters(const std::string&, int, int, std::uint64_t);      \
  template GruStepPass<T> gru_step_forward(const MatrixT<T>&, MatrixT<T>, const GruParameters<T>&, \
                                           std::vector<unsigned char>);                            \
  template MatrixT<T> gru_step_backward(const GruStepPass<T>&, const MatrixT<T>&,                  \
                                        GruParameters<T>&, MatrixT<T>*);                           \
  template GruSequencePass<T> gru_sequence_forward(MatrixT<T>, const std::vector<int>&, bool,      \
                                                   const GruParameters<T>&, MatrixT<T>);           \
  template MatrixT<T> gru_sequence_backward(const GruSequencePass<T>&, const MatrixT<T>&,          \
                                            const MatrixT<T>&, GruParameters<T>&, MatrixT<T>*);

ATTN_INSTANTIATE_GRU(float)
ATTN_INSTANTIATE_GRU(double)

}  // namespace attn

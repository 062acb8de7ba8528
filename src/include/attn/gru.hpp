// The gated recurrent unit (Cho et al., 2014), forward and backward: one step for a batch of
// sequences, and a whole direction over padded sequences. The gates follow PyTorch's nn.GRU, so
// that a model can be checked against it:
//   r  = sigmoid(x W_xr + b_xr + h W_hr + b_hr)      reset gate
//   z  = sigmoid(x W_xz + b_xz + h W_hz + b_hz)      update gate
//   n  = tanh(x W_xn + b_xn + r * (h W_hn + b_hn))   candidate state
//   h' = (1 - z) * n + z * h
// Templates on the scalar (float for training, double for the gradient checks); the layer
// conventions (passes, gradients added into Parameter::grad) are those of layers.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attn/layers.hpp"

namespace attn {

// The weights of one GRU with inputs of width d_in and a state of width H. The three gates sit
// side by side in the columns, in the order r, z, n.
template <typename T>
struct GruParameters {
  Parameter<T> w_x;  // (d_in, 3H)
  Parameter<T> b_x;  // (1, 3H)
  Parameter<T> w_h;  // (H, 3H)
  Parameter<T> b_h;  // (1, 3H)

  int input_width() const { return static_cast<int>(w_x.value.rows()); }
  int state_width() const { return static_cast<int>(w_h.value.rows()); }
};

// Weights drawn uniform in +-1/sqrt(H) from `seed` (PyTorch's default for nn.GRU), biases too;
// names are `name` + ".w_x", ".b_x", ".w_h", ".b_h". Throws InvalidArgument unless
// d_in, H >= 1.
template <typename T>
GruParameters<T> make_gru_parameters(const std::string& name, int input_width, int state_width,
                                     std::uint64_t seed);

// -- One step ----------------------------------------------------------------------------------

template <typename T>
struct GruStepPass {
  MatrixT<T> h_prev;                  // (B, H)
  MatrixT<T> r, z, n;                 // (B, H) the gates and the candidate
  MatrixT<T> hn;                      // (B, H) h_prev W_hn + b_hn, before the reset gate
  MatrixT<T> h;                       // (B, H) the new state
  std::vector<unsigned char> active;  // (B), or empty when every row is active
};

// gx: (B, 3H), the input's share x W_x + b_x (the caller projects its inputs, often all steps at
// once); h_prev: (B, H) -> the pass, with h: (B, H). A row b with active[b] == 0 keeps its state:
// h_b = h_prev_b (a padded step). Throws InvalidArgument when shapes do not fit.
template <typename T>
GruStepPass<T> gru_step_forward(const MatrixT<T>& gx, MatrixT<T> h_prev, const GruParameters<T>& p,
                                std::vector<unsigned char> active = {});

// dh: (B, H), dL/dh -> dL/dh_prev: (B, H). Writes dL/dgx (B, 3H) into *d_gx and adds the
// recurrent weights' gradients into p.w_h.grad and p.b_h.grad. A row that kept its state passes
// dh straight back and contributes nothing else.
template <typename T>
MatrixT<T> gru_step_backward(const GruStepPass<T>& pass, const MatrixT<T>& dh, GruParameters<T>& p,
                             MatrixT<T>* d_gx);

// -- A direction over padded sequences -----------------------------------------------------------

// B sequences padded to L steps, stored time-major: row t B + b holds step t of sequence b.
// Sequence b has lengths[b] steps, 1 <= lengths[b] <= L; the steps after its end are padding.
template <typename T>
struct GruSequencePass {
  int batch = 0, steps = 0;
  bool reverse = false;
  std::vector<int> lengths;           // (B)
  LinearPass<T> input;                // x: (L B, d_in) -> gx: (L B, 3H), all steps at once
  std::vector<GruStepPass<T>> cells;  // one per step, in the order they ran
  MatrixT<T> states;                  // (L B, H): row t B + b = the state after reading step t of
                                      // sequence b; zero at its padded steps
  MatrixT<T> last;                    // (B, H) each sequence's state after its last step read
};

// x: (L B, d_in) time-major; h0: (B, H) the starting states. Forward reads steps 0 .. len - 1;
// reverse reads len - 1 .. 0, so that its `last` has read the whole sequence back to step 0.
// Throws InvalidArgument on shapes that do not fit or lengths outside 1..L.
template <typename T>
GruSequencePass<T> gru_sequence_forward(MatrixT<T> x, const std::vector<int>& lengths, bool reverse,
                                        const GruParameters<T>& p, MatrixT<T> h0);

// d_states: (L B, H) dL/dstates (padded rows ignored), d_last: (B, H) dL/dlast -> dL/dx: (L B,
// d_in); writes dL/dh0 (B, H) into *d_h0 when it is not null; adds every weight's gradient into p.
template <typename T>
MatrixT<T> gru_sequence_backward(const GruSequencePass<T>& pass, const MatrixT<T>& d_states,
                                 const MatrixT<T>& d_last, GruParameters<T>& p, MatrixT<T>* d_h0);

}  // namespace attn

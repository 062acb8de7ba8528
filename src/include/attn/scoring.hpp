// Alignment scores for one decoder state against N encoder states (Bahdanau and after), computed
// by the core's attention (attention_grad.hpp) with the state as its one query and the encoder
// states as keys and values: additive scoring is its additive attention, dot and general scoring
// its dot-product attention.
#pragma once

#include "attn/matrix.hpp"

namespace attn {

struct ScoreResult {
  Vector scores;   // (N)   e_j, how well encoder state j fits the decoder state
  Vector weights;  // (N)   alpha = softmax(e), sums to 1
  Vector context;  // (d_h) c = sum_j alpha_j h_j
};

// Additive (Bahdanau): e_j = v . tanh(W_s s + W_h h_j).
// s: (d_s), h: (N, d_h), w_s: (d_a, d_s), w_h: (d_a, d_h), v: (d_a).
ScoreResult additive_score(const Vector& s, const Matrix& h, const Matrix& w_s, const Matrix& w_h,
                           const Vector& v);

// Dot: e_j = s . h_j.  s: (d_s), h: (N, d_h), needs d_s == d_h.
ScoreResult dot_score(const Vector& s, const Matrix& h);

// General (bilinear): e_j = s . (W h_j).  s: (d_s), h: (N, d_h), w: (d_s, d_h).
ScoreResult general_score(const Vector& s, const Matrix& h, const Matrix& w);

}  // namespace attn

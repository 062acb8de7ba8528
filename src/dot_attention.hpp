// The core's one dot-product attention on raw row-major buffers, with its input check and its
// mask. Private to src/.
//
// The page's attention (attention.hpp: the trace and the caller's buffers), the trainable
// attention (attention_grad.hpp, and through it the heads of multi-head attention and of the
// language model) all run dot_attention_forward, on the row softmax of row_softmax.hpp. Templates
// on the scalar: float to train and for the page, double for the gradient checks against central
// differences.
#pragma once

#include <cstddef>

#include "attn/matrix.hpp"
#include "row_softmax.hpp"

namespace attn::detail {

// The keys query t of n_q may see under the causal mask are 0 .. causal_end - 1: the queries are
// the last n_q positions of the keys' sequence, so query t stands at position n_k - n_q + t and
// sees keys up to it. Without the causal mask, all n_k.
inline Eigen::Index causal_end(bool causal, Eigen::Index n_q, Eigen::Index n_k, Eigen::Index t) {
  return causal ? n_k - n_q + t + 1 : n_k;
}

// Whether query t of n_q may see key i of n_k: before causal_end, and not padded
// (key_padding[i] != 0 hides key i from every query).
inline bool key_visible(bool causal, const KeyPadding& key_padding, Eigen::Index n_q,
                        Eigen::Index n_k, Eigen::Index t, Eigen::Index i) {
  if (i >= causal_end(causal, n_q, n_k, t)) return false;
  return key_padding.empty() || key_padding[static_cast<std::size_t>(i)] == 0;
}

// Throws InvalidArgument, its message starting with `where`, unless q: (n_q, d_k), k: (n_k, d_k)
// and v: (n_k, d_v) are non-empty and finite, n_q <= n_k under the causal mask, key_padding is
// empty or holds n_k flags, and every query has a key it may see.
template <typename T>
void check_attention_inputs(const char* where, const Eigen::Ref<const MatrixT<T>>& q,
                            const Eigen::Ref<const MatrixT<T>>& k,
                            const Eigen::Ref<const MatrixT<T>>& v, bool causal,
                            const KeyPadding& key_padding);

struct DotAttentionSizes {
  int n_q, n_k, d_k, d_v;
};

// What the scores go through between the product and the softmax.
template <typename T>
struct DotAttentionScores {
  T scale = 1;        // 1 / sqrt(d_k) for scaled dot-product attention, 1 for plain dot
  T temperature = 1;  // > 0; the softmax is of masked / temperature
  bool causal = false;
  const KeyPadding* key_padding = nullptr;  // null or empty: no padding
};

// Raw row-major buffers. The trace (scores, scaled) may be null, and then `masked` may be too:
// with masked null as well, the scores are formed in `weights` and replaced by the weights.
template <typename T>
struct DotAttentionBuffers {
  const T* q;  // (n_q, d_k)
  const T* k;  // (n_k, d_k)
  const T* v;  // (n_k, d_v)
  T* scores;   // (n_q, n_k) out, or null: q k^T
  T* scaled;   // (n_q, n_k) out, or null: scores * scale
  T* masked;   // (n_q, n_k) out, or null: scaled, with -inf where a key is hidden
  T* weights;  // (n_q, n_k) out: softmax of masked / temperature by row; exactly 0 where hidden
  T* output;   // (n_q, d_v) out: weights v
  T* scratch;  // dot_attention_scratch_size(sizes) entries of workspace
};

// The entries of workspace dot_attention_forward needs.
std::size_t dot_attention_scratch_size(const DotAttentionSizes& sizes);

// Attention of n_q queries over n_k keys and values with dot-product scores, band by band of eight
// queries, so that a band's scores are still in the cache when its softmax and its output read
// them. The products are simd_matmul.hpp's fixed-order kernel for float (k^T and v packed once
// per call) and ordered_math.hpp's loops for double, so every build gives the same bits. Expects
// inputs that check_attention_inputs accepts; throws InvalidArgument only when a row of scores
// overflows to infinity.
template <typename T>
void dot_attention_forward(const DotAttentionBuffers<T>& buffers, const DotAttentionSizes& sizes,
                           const DotAttentionScores<T>& scores);

}  // namespace attn::detail

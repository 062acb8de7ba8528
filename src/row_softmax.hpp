// The core's one row softmax on raw row-major buffers, which softmax.hpp's functions, the
// attention (dot_attention.hpp) and the "why scale" experiment call. Private to src/.
#pragma once

namespace attn::detail {

// x, w: `rows` rows of `cols` entries, rows x_stride and w_stride apart; w may be x itself.
// Row r of w becomes `scale` times the softmax of row r of x: w_rc = exp(x_rc - top_r) *
// (scale / sum_r), with top_r = max_c x_rc and sum_r = sum_c exp(x_rc - top_r) summed in order of
// c; each exp is ordered_math.hpp's exp_of: for float the portable one (the same bits in every
// build, a vector at a time), for double the standard library's. Entries of -inf get exactly 0.
// When tops and sums are given (`rows` entries each), they receive top_r and sum_r, from which the
// loss takes log softmax without a probability that could underflow (and its scale folds the
// gradient's share into the same pass). x holds no NaN: callers check their inputs (a NaN would
// get no weight, or make its row's maximum NaN). Returns the first row with no finite entry to put
// weight on (its maximum is -inf, +inf or NaN; w is then partly written), or -1 when every row is
// done.
template <typename T>
long softmax_rows_into(const T* x, long x_stride, T* w, long w_stride, long rows, long cols,
                       T scale = 1, T* tops = nullptr, T* sums = nullptr);

}  // namespace attn::detail

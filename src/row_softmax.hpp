// The core's one row softmax on raw row-major buffers, which softmax.hpp's functions, the
// attention (dot_attention.hpp) and the "why scale" experiment call. Private to src/.
#pragma once

namespace attn::detail {

// x, w: `rows` rows of `cols` entries, rows x_stride and w_stride apart; w may be x itself.
// Row r of w becomes the softmax of row r of x: w_rc = exp(x_rc - max_c x_rc) / sum, each sum in
// order of c, each exp ordered_math.hpp's exp_of: for float the portable one (the same bits in
// every build, four lanes at a time), for double the standard library's. Entries of -inf get
// exactly 0. Returns the first row with no finite entry to put weight on (its maximum is -inf or
// +inf; w is then partly written), or -1 when every row is done.
template <typename T>
long softmax_rows_into(const T* x, long x_stride, T* w, long w_stride, long rows, long cols);

}  // namespace attn::detail

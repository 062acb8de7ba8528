// The hot path of the engine: scaled dot-product attention over buffers that live in wasm memory
// across calls. JavaScript copies its inputs straight into them and the results out, so a
// call costs no allocation and no per-value conversion.
#pragma once

#include <cstdint>

namespace attn::bindings {

// Order of the buffer addresses in the table that attention_prepare returns.
enum AttentionSlot : std::uint32_t {
  kQ,        // (n_q, d_k) float32, written by the caller
  kK,        // (n_k, d_k)
  kV,        // (n_k, d_v)
  kPadding,  // n_k bytes, non-zero = padded key
  kResults,  // weights (n_q, n_k), output (n_q, d_v), then scores, scaled, masked (n_q, n_k)
             // each, one after the other, so that the caller copies them out in one go (or
             // only the first two)
  kSlotCount
};

// Sizes the buffers for these dimensions; returns the address of a table of kSlotCount uint32
// byte addresses, valid until the next call.
std::uintptr_t attention_prepare(int n_q, int n_k, int d_k, int d_v);

// Runs attention on the buffers last prepared for the same sizes. Throws on bad input. Without
// the trace, only weights and output are written.
void attention_run(int n_q, int n_k, int d_k, int d_v, bool scale, float temperature, bool causal,
                   bool has_padding, bool trace);

}  // namespace attn::bindings

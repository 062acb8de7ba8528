// The hot path of the engine: scaled dot-product attention over buffers that live in wasm memory
// across calls. JavaScript copies its inputs straight into them and the results out, so a call
// costs no allocation and no per-value conversion. Large results come a chunk of query rows at a
// time, each copied out while it is still in cache, so that the buffers stay small however large
// the inputs (workspace.cpp: kWholeFloats).
#pragma once

#include <cstdint>

namespace attn::bindings {

// Order of the entries in the table that attention_prepare returns: byte addresses, then a count.
enum AttentionSlot : std::uint32_t {
  kQ,          // (n_q, d_k) float32, written by the caller
  kK,          // (n_k, d_k)
  kV,          // (n_k, d_v)
  kPadding,    // n_k bytes, non-zero = padded key
  kResults,    // one chunk of query rows: weights (rows, n_k), output (rows, d_v), then scores,
               // scaled, masked (rows, n_k) each, one after the other, so that the caller copies
               // them out in one go (or only the first two) when the chunk holds every row
  kChunkRows,  // query rows per chunk, the last chunk as many as are left over
  kSlotCount
};

// Sizes the buffers for these dimensions; returns the address of a table of kSlotCount uint32
// entries, valid until the next call.
std::uintptr_t attention_prepare(int n_q, int n_k, int d_k, int d_v);

// Checks the inputs in the buffers last prepared for the same sizes and computes the first chunk
// of query rows. Throws on bad input. Without the trace, only weights and output are written.
void attention_start(int n_q, int n_k, int d_k, int d_v, bool scale, float temperature, bool causal,
                     bool has_padding, bool trace);

// Computes the chunk of query rows from `first` on, a multiple of the chunk's rows below n_q, of
// the attention that attention_start began. Throws when there is none, or on a bad `first`.
void attention_rows(int first);

}  // namespace attn::bindings

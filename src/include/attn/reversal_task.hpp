// The toy task the training experiments learn: reverse a sequence of symbols. Batches come from
// the project's own seeded generator, so native and wasm builds draw the same ones.
#pragma once

#include <cstdint>
#include <vector>

#include "attn/random.hpp"

namespace attn {

// Symbols are 1..vocab; 0 is padding.
constexpr int kPaddingSymbol = 0;

// B sequences padded to the longest, row-major (B, max_length): sequence b is
// inputs[b * max_length + i] for i < lengths[b], then padding. targets holds each one reversed,
// targets[b * max_length + t] = inputs[b * max_length + lengths[b] - 1 - t], padded the same way.
struct ReversalBatch {
  int size = 0;              // B
  int max_length = 0;        // the longest length in the batch
  std::vector<int> lengths;  // (B)
  std::vector<int> inputs;   // (B, max_length), symbols 1..vocab, 0 = padding
  std::vector<int> targets;  // (B, max_length), the reversal, 0 = padding
  // (max_length) 1 = padded position of b. Throws InvalidArgument unless 0 <= b < lengths.size()
  // and lengths[b] >= 0.
  std::vector<std::uint8_t> padding_of(int b) const;
};

// B sequences of lengths uniform in [min_length, max_length] and symbols uniform in 1..vocab,
// drawn from rng in a fixed order (per sequence: its length, then its symbols).
// Throws InvalidArgument unless 1 <= min_length <= max_length, B >= 1 and vocab >= 1.
ReversalBatch draw_reversal_batch(Rng& rng, int batch, int vocab, int min_length, int max_length);

// B sequences of one given length (no padding), as draw_reversal_batch with min = max = length.
ReversalBatch draw_reversal_batch(Rng& rng, int batch, int vocab, int length);

}  // namespace attn

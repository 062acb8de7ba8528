#include "attn/reversal_task.hpp"

#include <algorithm>
#include <string>

#include "checks.hpp"

namespace attn {
namespace {

// A whole number uniform in [low, high], from 53 random bits.
int uniform_int(Rng& rng, int low, int high) {
  const int value = low + static_cast<int>(rng.uniform() * (high - low + 1));
  return std::min(value, high);
}

}  // namespace

std::vector<std::uint8_t> ReversalBatch::padding_of(int b) const {
  if (b < 0 || static_cast<size_t>(b) >= lengths.size() || max_length < 0 ||
      lengths[static_cast<size_t>(b)] < 0) {
    detail::fail("reversal batch",
                 "padding_of(" + std::to_string(b) + "): the batch has " +
                     std::to_string(lengths.size()) +
                     " lengths, each from 0 to max_length = " + std::to_string(max_length));
  }
  std::vector<std::uint8_t> padding(static_cast<size_t>(max_length), 0);
  for (int i = lengths[static_cast<size_t>(b)]; i < max_length; ++i) padding[i] = 1;
  return padding;
}

ReversalBatch draw_reversal_batch(Rng& rng, int batch, int vocab, int min_length, int max_length) {
  constexpr const char* kWhere = "reversal batch";
  if (batch < 1 || vocab < 1) {
    detail::fail(kWhere, "batch and vocab must be at least 1, got batch=" + std::to_string(batch) +
                             ", vocab=" + std::to_string(vocab));
  }
  if (min_length < 1 || max_length < min_length) {
    detail::fail(kWhere, "lengths need 1 <= min_length <= max_length, got " +
                             std::to_string(min_length) + " and " + std::to_string(max_length));
  }
  // 1. Draw every sequence, then pad all of them to the longest.
  std::vector<std::vector<int>> sequences(static_cast<size_t>(batch));
  ReversalBatch out;
  out.size = batch;
  for (auto& sequence : sequences) {
    sequence.resize(static_cast<size_t>(uniform_int(rng, min_length, max_length)));
    for (int& symbol : sequence) symbol = uniform_int(rng, 1, vocab);
    out.lengths.push_back(static_cast<int>(sequence.size()));
    out.max_length = std::max(out.max_length, static_cast<int>(sequence.size()));
  }
  // 2. The inputs, and their reversals as targets, in rows of max_length.
  const auto width = static_cast<size_t>(out.max_length);
  out.inputs.assign(static_cast<size_t>(batch) * width, kPaddingSymbol);
  out.targets.assign(static_cast<size_t>(batch) * width, kPaddingSymbol);
  for (size_t b = 0; b < sequences.size(); ++b) {
    const std::vector<int>& s = sequences[b];
    for (size_t i = 0; i < s.size(); ++i) {
      out.inputs[b * width + i] = s[i];
      out.targets[b * width + i] = s[s.size() - 1 - i];
    }
  }
  return out;
}

ReversalBatch draw_reversal_batch(Rng& rng, int batch, int vocab, int length) {
  return draw_reversal_batch(rng, batch, vocab, length, length);
}

}  // namespace attn

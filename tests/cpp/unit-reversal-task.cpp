#include <catch2/catch.hpp>
#include <set>
#include <vector>

#include "attn/reversal_task.hpp"

TEST_CASE("a reversal batch is padded to its longest sequence, targets reversed",
          "[reversal-task]") {
  attn::Rng rng(7);
  const attn::ReversalBatch batch = attn::draw_reversal_batch(rng, 64, 8, 2, 12);
  REQUIRE(batch.size == 64);
  REQUIRE(batch.lengths.size() == 64);
  const int width = batch.max_length;
  REQUIRE(batch.inputs.size() == static_cast<size_t>(64 * width));
  int longest = 0;
  std::set<int> seen_lengths, seen_symbols;
  for (int b = 0; b < 64; ++b) {
    const int n = batch.lengths[b];
    CHECK(n >= 2);
    CHECK(n <= 12);
    longest = std::max(longest, n);
    seen_lengths.insert(n);
    const std::vector<std::uint8_t> padding = batch.padding_of(b);
    for (int i = 0; i < width; ++i) {
      const int x = batch.inputs[b * width + i], y = batch.targets[b * width + i];
      if (i < n) {
        CHECK(x >= 1);
        CHECK(x <= 8);
        CHECK(y == batch.inputs[b * width + n - 1 - i]);
        CHECK(padding[i] == 0);
        seen_symbols.insert(x);
      } else {
        CHECK(x == attn::kPaddingSymbol);
        CHECK(y == attn::kPaddingSymbol);
        CHECK(padding[i] == 1);
      }
    }
  }
  CHECK(longest == width);
  // 64 draws cover most of the 11 lengths and all 8 symbols.
  CHECK(seen_lengths.size() >= 8);
  CHECK(seen_symbols.size() == 8);
}

TEST_CASE("reversal batches repeat for a seed and differ between seeds", "[reversal-task]") {
  attn::Rng a(3), b(3), c(4);
  const auto first = attn::draw_reversal_batch(a, 16, 8, 1, 16);
  const auto again = attn::draw_reversal_batch(b, 16, 8, 1, 16);
  const auto other = attn::draw_reversal_batch(c, 16, 8, 1, 16);
  CHECK(first.inputs == again.inputs);
  CHECK(first.lengths == again.lengths);
  CHECK(first.inputs != other.inputs);
  // The next batch from the same generator is a new one.
  CHECK(attn::draw_reversal_batch(a, 16, 8, 1, 16).inputs != first.inputs);
  // One length: no padding at all.
  const auto fixed = attn::draw_reversal_batch(c, 5, 4, 7);
  CHECK(fixed.max_length == 7);
  CHECK(fixed.lengths == std::vector<int>(5, 7));
}

TEST_CASE("derived seeds are distinct streams", "[reversal-task]") {
  CHECK(attn::derive_seed(1, 0) != attn::derive_seed(1, 1));
  CHECK(attn::derive_seed(1, 0) != attn::derive_seed(2, 0));
  CHECK(attn::derive_seed(5, 9) == attn::derive_seed(5, 9));
}

TEST_CASE("reversal batches refuse impossible settings", "[reversal-task]") {
  attn::Rng rng(1);
  CHECK_THROWS_WITH(attn::draw_reversal_batch(rng, 0, 8, 2, 12),
                    Catch::Contains("batch and vocab must be at least 1"));
  CHECK_THROWS_WITH(attn::draw_reversal_batch(rng, 4, 8, 5, 3),
                    Catch::Contains("1 <= min_length <= max_length, got 5 and 3"));
  CHECK_THROWS_WITH(attn::draw_reversal_batch(rng, 4, 8, 0), Catch::Contains("got 0 and 0"));
}

TEST_CASE("padding_of refuses a sequence the batch does not hold", "[reversal-task]") {
  // Beside a case the fuzzer (tests/fuzz) found in the models' forward pass, which calls it: a
  // negative index would write before the start of the flags, one past the end read past lengths.
  attn::Rng rng(3);
  attn::ReversalBatch batch = attn::draw_reversal_batch(rng, 2, 4, 3, 5);
  CHECK_THROWS_AS(batch.padding_of(2), attn::InvalidArgument);
  CHECK_THROWS_AS(batch.padding_of(-1), attn::InvalidArgument);
  batch.lengths[0] = -2;
  CHECK_THROWS_WITH(batch.padding_of(0), Catch::Contains("padding_of(0)"));
  batch.lengths[0] = 1;
  const std::vector<std::uint8_t> flags = batch.padding_of(0);
  CHECK(flags.size() == static_cast<size_t>(batch.max_length));
  CHECK(flags[0] == 0);
  CHECK(flags[1] == 1);
}

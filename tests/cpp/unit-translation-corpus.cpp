#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <vector>

#include "attn/matrix.hpp"
#include "attn/translation_corpus.hpp"

namespace {

void put32(std::vector<std::uint8_t>& b, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put16(std::vector<std::uint8_t>& b, int v) {
  b.push_back(static_cast<std::uint8_t>(v & 0xff));
  b.push_back(static_cast<std::uint8_t>(v >> 8));
}

// A validation file of two pairs, as docs/translation-corpus.md lays it out: 10 English classes
// (9 unknown), 7 German ones.
std::vector<std::uint8_t> two_pairs() {
  std::vector<std::uint8_t> b(8);
  std::memcpy(b.data(), "ATTNPAIR", 8);
  for (std::uint32_t v : {1u, 1u, 2u, 10u, 9u, 0xabcdu, 7u, 0x1234u, 5u, 3u}) put32(b, v);
  put16(b, 3);  // pair 0: 3 English, 2 German ids, from the dictionary
  put16(b, 2);
  put16(b, 0);
  for (int id : {4, 9, 0, 5, 3}) put16(b, id);
  put16(b, 2);  // pair 1: 2 English, 1 German, from LibreOffice
  put16(b, 1);
  put16(b, 1);
  for (int id : {8, 1, 6}) put16(b, id);
  return b;
}

}  // namespace

TEST_CASE("translation pairs: a file reads back as it was written", "[translation-corpus]") {
  const std::vector<std::uint8_t> b = two_pairs();
  const attn::TranslationPairs p = attn::parse_translation_pairs(b.data(), b.size());
  CHECK(p.split == 1);
  CHECK(p.english_classes == 10);
  CHECK(p.english_unknown == 9);
  CHECK(p.english_hash == 0xabcd);
  CHECK(p.german_classes == 7);
  CHECK(p.german_hash == 0x1234);
  REQUIRE(p.pairs.size() == 2);
  CHECK(p.pairs[0].english == std::vector<int>{4, 9, 0});
  CHECK(p.pairs[0].german == std::vector<int>{5, 3});
  CHECK(p.pairs[0].source == 0);
  CHECK(p.pairs[1].english == std::vector<int>{8, 1});
  CHECK(p.pairs[1].german == std::vector<int>{6});
  CHECK(p.pairs[1].source == 1);
}

TEST_CASE("translation pairs: every broken field is named", "[translation-corpus]") {
  auto fails_with = [](std::vector<std::uint8_t> b, const char* what) {
    CHECK_THROWS_WITH(attn::parse_translation_pairs(b.data(), b.size()), Catch::Contains(what));
  };
  const std::vector<std::uint8_t> good = two_pairs();
  auto with = [&](std::size_t at, std::uint8_t value) {
    std::vector<std::uint8_t> b = good;
    b[at] = value;
    return b;
  };
  fails_with(std::vector<std::uint8_t>(good.begin(), good.begin() + 20), "truncated");
  fails_with(with(0, 'X'), "magic");
  fails_with(with(8, 2), "format version 2");
  fails_with(with(12, 3), "unknown split 3");
  fails_with(with(24, 10), "unknown id 10");
  fails_with(with(32, 4), "German classes 4");
  std::vector<std::uint8_t> longer = good;
  longer.push_back(0);
  fails_with(longer, "extra bytes");
  fails_with(with(48 + 4, 4), "unknown source 4");
  fails_with(with(48 + 6 + 2, 10), "English id 10 is not below 10");
  fails_with(with(48 + 6 + 6, 2), "German id 2 is not a word or <unk>");
  fails_with(with(48 + 6 + 8, 7), "German id 7");
  // Pair 0 claims 4 German ids: the totals no longer add up (or the file runs out).
  CHECK_THROWS_AS(attn::parse_translation_pairs(with(48 + 2, 4).data(), good.size()),
                  attn::InvalidArgument);
  fails_with(with(48 + 2, 0), "empty side");
  CHECK_THROWS_WITH(attn::parse_translation_pairs(nullptr, 0), Catch::Contains("truncated"));
}

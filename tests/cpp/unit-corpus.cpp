#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <vector>

#include "attn/corpus.hpp"
#include "attn/matrix.hpp"

namespace {

using Bytes = std::vector<std::uint8_t>;
using Catch::Matchers::Contains;

void put_u32(Bytes& b, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

void set_u32(Bytes& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

// A file of the documented layout: header, sources, offsets, uint16 ids.
Bytes make_file(std::uint32_t split, std::uint32_t classes, std::uint32_t unknown,
                const std::vector<std::uint32_t>& sources,
                const std::vector<std::vector<std::uint16_t>>& samples) {
  Bytes b{'A', 'T', 'T', 'N', 'C', 'O', 'R', 'P'};
  std::uint32_t tokens = 0;
  for (const auto& s : samples) tokens += static_cast<std::uint32_t>(s.size());
  for (std::uint32_t v : {1u, split, classes, unknown, 0xeaba90f4u,
                          static_cast<std::uint32_t>(samples.size()), tokens}) {
    put_u32(b, v);
  }
  for (std::uint32_t s : sources) put_u32(b, s);
  std::uint32_t offset = 0;
  put_u32(b, 0);
  for (const auto& s : samples) put_u32(b, offset += static_cast<std::uint32_t>(s.size()));
  for (const auto& s : samples) {
    for (std::uint16_t id : s) {
      b.push_back(static_cast<std::uint8_t>(id & 0xff));
      b.push_back(static_cast<std::uint8_t>(id >> 8));
    }
  }
  return b;
}

}  // namespace

TEST_CASE("corpus: a file is read into its samples", "[corpus]") {
  const Bytes b = make_file(2, 300, 299, {4, 14, 99}, {{1, 2, 3}, {299}, {258, 0}});
  REQUIRE(b.size() == 36 + 4 * 3 + 4 * 4 + 2 * 6);
  const attn::Corpus c = attn::parse_corpus(b.data(), b.size());
  CHECK(c.split == 2);
  CHECK(c.classes == 300);
  CHECK(c.unknown_id == 299);
  CHECK(c.vocab_hash == 0xeaba90f4u);
  CHECK(c.sources == std::vector<std::uint32_t>{4, 14, 99});
  REQUIRE(c.samples.size() == 3);
  CHECK(c.samples[0] == std::vector<int>{1, 2, 3});
  CHECK(c.samples[1] == std::vector<int>{299});
  CHECK(c.samples[2] == std::vector<int>{258, 0});
  CHECK(c.tokens() == 6);
}

TEST_CASE("corpus: every documented check refuses a bad file", "[corpus]") {
  const Bytes good = make_file(0, 300, 299, {4, 14}, {{1, 2, 3}, {7}});
  const auto parse = [](const Bytes& b) { return attn::parse_corpus(b.data(), b.size()); };
  REQUIRE_NOTHROW(parse(good));
  Bytes b = good;
  b[3] = 'X';
  CHECK_THROWS_WITH(parse(b), Contains("not a corpus file"));
  b = good;
  set_u32(b, 8, 2);
  CHECK_THROWS_WITH(parse(b), Contains("version 2"));
  b = good;
  set_u32(b, 12, 3);
  CHECK_THROWS_WITH(parse(b), Contains("split 3"));
  b = good;
  set_u32(b, 16, 1);
  CHECK_THROWS_WITH(parse(b), Contains("classes is 1"));
  b = good;
  set_u32(b, 20, 300);
  CHECK_THROWS_WITH(parse(b), Contains("unknownId"));
  CHECK_THROWS_WITH(attn::parse_corpus(good.data(), good.size() - 1), Contains("truncated"));
  CHECK_THROWS_WITH(attn::parse_corpus(good.data(), 30), Contains("truncated"));
  b = good;
  b.push_back(0);
  CHECK_THROWS_WITH(parse(b), Contains("extra bytes"));
  CHECK_THROWS_WITH(parse(make_file(0, 300, 299, {14, 4}, {{1}, {2}})), Contains("source indices"));
  CHECK_THROWS_WITH(parse(make_file(0, 300, 299, {4, 14}, {{1}, {}})),
                    Contains("not strictly increasing"));
  CHECK_THROWS_WITH(parse(make_file(0, 300, 299, {4}, {{1, 300}})), Contains("not below classes"));
  b = make_file(0, 300, 299, {}, {});
  CHECK_THROWS_WITH(parse(b), Contains("no sample"));
  b = good;
  set_u32(b, 36 + 8, 1);  // the first offset must be 0
  CHECK_THROWS_WITH(parse(b), Contains("from 0 to the token count"));
}

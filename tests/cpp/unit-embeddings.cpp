#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "attn/embeddings.hpp"
#include "attn/lm_weights.hpp"

namespace {

using Bytes = std::vector<std::uint8_t>;

void put_u32(Bytes& out, std::size_t at, std::uint32_t value) {
  for (int b = 0; b < 4; ++b) out[at + b] = static_cast<std::uint8_t>(value >> (8 * b));
}

// A word-vector file as tools/make-embeddings.js writes it: header, vocabulary, padding to a
// multiple of 4, scales (count), int8 codes (count, dim).
Bytes make_file(const std::vector<std::string>& words, const std::vector<float>& scales,
                const std::vector<std::int8_t>& codes, std::uint32_t dim) {
  std::string vocabulary;
  for (const std::string& word : words) vocabulary += word + "\n";
  const std::size_t scales_at = (24 + vocabulary.size() + 3) / 4 * 4;
  Bytes out(scales_at + 4 * scales.size() + codes.size(), 0);
  std::memcpy(out.data(), "ATTNVECS", 8);
  put_u32(out, 8, 1);
  put_u32(out, 12, static_cast<std::uint32_t>(words.size()));
  put_u32(out, 16, dim);
  put_u32(out, 20, static_cast<std::uint32_t>(vocabulary.size()));
  std::memcpy(out.data() + 24, vocabulary.data(), vocabulary.size());
  for (std::size_t i = 0; i < scales.size(); ++i) {
    std::uint32_t bits;
    std::memcpy(&bits, &scales[i], 4);
    put_u32(out, scales_at + 4 * i, bits);
  }
  std::memcpy(out.data() + scales_at + 4 * scales.size(), codes.data(), codes.size());
  return out;
}

// Three words of dimension 4. "cat" and "kitten" point the same way; "car" does not.
Bytes tiny_file() {
  return make_file({"cat", "kitten", "car"}, {0.5f, 0.25f, 1.0f},
                   {10, 20, 0, -4,      // cat    -> (5, 10, 0, -2)
                    20, 40, 0, -8,      // kitten -> (5, 10, 0, -2)
                    0, -3, 127, -127},  // car    -> (0, -3, 127, -127)
                   4);
}

attn::Embeddings parse(const Bytes& bytes) {
  return attn::Embeddings::parse(bytes.data(), bytes.size());
}

}  // namespace

TEST_CASE("embeddings read the vocabulary and dimension of a file", "[embeddings]") {
  const attn::Embeddings e = parse(tiny_file());
  CHECK(e.size() == 3);
  CHECK(e.dim() == 4);
  CHECK(e.vocabulary().word(1) == "kitten");
  CHECK(e.vocabulary().index_of("car") == 2);
  CHECK(e.vocabulary().index_of("dog") == -1);
  CHECK(e.vocabulary().contains("cat"));
  CHECK_FALSE(e.vocabulary().contains("Cat"));  // byte for byte: the tokenizer lower-cases
}

TEST_CASE("embeddings dequantise a word as its scale times its int8 entries", "[embeddings]") {
  const attn::Embeddings e = parse(tiny_file());
  const attn::Vector cat = e.lookup("cat");  // (4)
  REQUIRE(cat.size() == 4);
  CHECK(cat[0] == 5.0f);
  CHECK(cat[1] == 10.0f);
  CHECK(cat[2] == 0.0f);
  CHECK(cat[3] == -2.0f);
  CHECK(e.lookup("kitten") == cat);
  CHECK(e.lookup("car")[3] == -127.0f);
  // Norms sqrt(129) (cat, kitten) and sqrt(9 + 2 * 127^2) (car).
  const double expected = (2 * std::sqrt(129.0) + std::sqrt(9.0 + 2 * 127.0 * 127.0)) / 3;
  CHECK(e.mean_norm() == Approx(expected).epsilon(1e-6));
}

TEST_CASE("embeddings embed tokens row by row and flag the unknown ones", "[embeddings]") {
  const attn::Embeddings e = parse(tiny_file());
  const attn::EmbeddedTokens out = e.embed({"cat", "zebra", "car", "zebra", "quokka"});
  REQUIRE(out.vectors.rows() == 5);  // (n, d) = (5, 4)
  REQUIRE(out.vectors.cols() == 4);
  CHECK(out.known == std::vector<std::uint8_t>{1, 0, 1, 0, 0});
  CHECK(out.vectors.row(0).transpose() == e.lookup("cat"));
  CHECK(out.vectors.row(2).transpose() == e.lookup("car"));

  SECTION("an unknown word gets the same vector every time, of the mean norm") {
    CHECK(out.vectors.row(1) == out.vectors.row(3));
    CHECK(out.vectors.row(1).transpose() == e.fallback("zebra"));
    CHECK(out.vectors.row(1).norm() == Approx(e.mean_norm()).epsilon(1e-5));
    CHECK(out.vectors.row(4).norm() == Approx(e.mean_norm()).epsilon(1e-5));
  }
  SECTION("different unknown words get different vectors") {
    CHECK((out.vectors.row(1) - out.vectors.row(4)).norm() > 0.1f * e.mean_norm());
  }
  SECTION("no tokens give an empty (0, d) matrix") {
    const attn::EmbeddedTokens none = e.embed({});
    CHECK(none.vectors.rows() == 0);
    CHECK(none.vectors.cols() == 4);
    CHECK(none.known.empty());
  }
}

TEST_CASE("embeddings hash words with 32-bit FNV-1a", "[embeddings]") {
  CHECK(attn::fnv1a32("") == 2166136261u);
  CHECK(attn::fnv1a32("a") == 0xe40c292cu);
  CHECK(attn::fnv1a32("foobar") == 0xbf9cf968u);
  CHECK(attn::fnv1a32("\xc3\xa9") != attn::fnv1a32("e"));  // bytes, not characters
  // Continued from the hash of the bytes before.
  CHECK(attn::fnv1a32("bar", attn::fnv1a32("foo")) == attn::fnv1a32("foobar"));
  CHECK(attn::fnv1a32("", attn::fnv1a32("foo")) == attn::fnv1a32("foo"));
}

TEST_CASE("embeddings reject files that are not word-vector files", "[embeddings]") {
  const Bytes good = tiny_file();

  SECTION("every truncation is refused") {
    for (std::size_t size = 0; size < good.size(); ++size) {
      CAPTURE(size);
      CHECK_THROWS_AS(attn::Embeddings::parse(good.data(), size), attn::InvalidArgument);
    }
    CHECK_THROWS_WITH(attn::Embeddings::parse(good.data(), 10),
                      Catch::Contains("10 bytes, fewer than the 24 of the header"));
    CHECK_THROWS_WITH(attn::Embeddings::parse(good.data(), good.size() - 1),
                      Catch::Contains("it is truncated"));
  }
  SECTION("extra bytes at the end") {
    Bytes longer = good;
    longer.push_back(0);
    CHECK_THROWS_WITH(parse(longer), Catch::Contains("it has extra bytes"));
  }
  SECTION("another kind of file") {
    Bytes other = good;
    std::memcpy(other.data(), "GIF89a\x01\x02", 8);
    CHECK_THROWS_WITH(parse(other),
                      Catch::Contains("not a word-vector file: it starts with \"GIF89a??\""));
  }
  SECTION("another version") {
    Bytes other = good;
    put_u32(other, 8, 2);
    CHECK_THROWS_WITH(parse(other), Catch::Contains("format version 2 is not supported"));
  }
  SECTION("no words or no dimensions") {
    Bytes other = good;
    put_u32(other, 16, 0);
    CHECK_THROWS_WITH(parse(other), Catch::Contains("count=3 and dim=0"));
  }
  SECTION("a vocabulary that disagrees with the header") {
    const std::vector<std::int8_t> codes(12, 1);                   // (3, 4)
    Bytes fewer = make_file({"cat", "car"}, {1, 1, 1}, codes, 4);  // 2 words, sized for 3
    put_u32(fewer, 12, 3);
    CHECK_THROWS_WITH(parse(fewer), Catch::Contains("holds 2 words but the header announces 3"));
    Bytes more = make_file({"cat", "kitten", "car"}, {1, 1}, std::vector<std::int8_t>(8, 1), 4);
    put_u32(more, 12, 2);
    CHECK_THROWS_WITH(parse(more), Catch::Contains("more than the 2 words"));
    Bytes unended = make_file({"cat", "car"}, {1, 1}, std::vector<std::int8_t>(8, 1), 4);
    put_u32(unended, 20, 7);  // "cat\ncar" without its last newline; the scales stay at byte 32
    CHECK_THROWS_WITH(parse(unended), Catch::Contains("must end with a newline"));
    CHECK_THROWS_WITH(parse(make_file({"cat", "", "car"}, {1, 1, 1}, codes, 4)),
                      Catch::Contains("word 1 is empty"));
    CHECK_THROWS_WITH(parse(make_file({"cat", "car", "cat"}, {1, 1, 1}, codes, 4)),
                      Catch::Contains("\"cat\" appears twice, as words 0 and 2"));
  }
  SECTION("a scale that is not a finite number > 0") {
    for (const float bad : {0.0f, -1.0f, std::nanf(""), INFINITY}) {
      const Bytes file = make_file({"cat", "car"}, {1.0f, bad}, std::vector<std::int8_t>(8, 1), 4);
      CHECK_THROWS_WITH(parse(file), Catch::Contains("the scale of word 1 (\"car\")"));
    }
  }
}

TEST_CASE("the language model reads the vectors' rows, then one unknown-word row", "[embeddings]") {
  const attn::Embeddings e = parse(tiny_file());
  const attn::MatrixT<float> rows = attn::language_model_word_vectors(e);
  REQUIRE(rows.rows() == 4);
  REQUIRE(rows.cols() == 4);
  for (const char* word : {"cat", "kitten", "car"}) {
    const int i = e.vocabulary().index_of(word);
    CHECK(rows.row(i) == e.lookup(word).transpose());
  }
  CHECK(rows.row(3) == e.fallback("<unk>").transpose());
  const attn::Matrix all = e.vocabulary_vectors();
  REQUIRE(all.rows() == 3);
  CHECK(all == rows.topRows(3));
  CHECK(attn::language_model_ids(e, {"car", "dog", "cat", ""}) == std::vector<int>{2, 3, 0, 3});
  CHECK(attn::vocabulary_hash(e) == attn::fnv1a32("cat\nkitten\ncar\n"));
}

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "attn/translation_text.hpp"

namespace {

using attn::Matrix;
using Catch::Matchers::Contains;

// "▁" as the pieces write it.
const std::string kMark = "\xe2\x96\x81";

attn::Translation translation_of(std::vector<int> ids, Matrix weights) {
  attn::Translation t;
  t.words = std::move(ids);
  t.weights = std::move(weights);
  return t;
}

}  // namespace

TEST_CASE("readable translation: a word vocabulary reads id by id, <unk> copying the English",
          "[translation-text]") {
  const attn::GermanVocabulary words({"<pad>", "<s>", "</s>", "<unk>", "das", "haus", "."});
  CHECK_FALSE(words.pieces());
  const std::vector<std::string> english{"the", "zqx", "house", "."};
  Matrix w(4, 4);
  w << 0.7f, 0.1f, 0.1f, 0.1f,     // das: on "the"
      0.1f, 0.2f, 0.6f, 0.1f,      // <unk>: on "house"
      0.1f, 0.0f, 0.2f, 0.7f,      // .
      0.25f, 0.25f, 0.25f, 0.25f;  // </s>
  const attn::ReadableTranslation r =
      attn::readable_translation(translation_of({4, 3, 6}, w), words, english);
  CHECK(r.words == std::vector<std::string>{"das", "house", "."});
  CHECK(r.first_piece == std::vector<int>{0, 1, 2, 3});
  CHECK(r.copied == std::vector<int>{-1, 2, -1});
  CHECK(r.weights == w);

  SECTION("equal weights copy the first of them") {
    Matrix even = Matrix::Constant(2, 2, 0.5f);
    const attn::ReadableTranslation e =
        attn::readable_translation(translation_of({3}, even), words, {"a", "b"});
    CHECK(e.words == std::vector<std::string>{"a"});
    CHECK(e.copied == std::vector<int>{0});
  }
  SECTION("without weights (the fixed vector) <unk> stays as written") {
    const attn::ReadableTranslation f =
        attn::readable_translation(translation_of({4, 3}, Matrix(3, 0)), words, english);
    CHECK(f.words == std::vector<std::string>{"das", "<unk>"});
    CHECK(f.copied == std::vector<int>{-1, -1});
    CHECK(f.weights.rows() == 3);
    CHECK(f.weights.cols() == 0);
  }
  SECTION("nothing written: no words, the </s> row alone") {
    Matrix end(1, 4);
    end << 0.1f, 0.2f, 0.3f, 0.4f;
    const attn::ReadableTranslation none =
        attn::readable_translation(translation_of({}, end), words, english);
    CHECK(none.words.empty());
    CHECK(none.first_piece == std::vector<int>{0});
    CHECK(none.weights == end);
  }
}

TEST_CASE("readable translation: pieces join into words, each row the mean of its pieces'",
          "[translation-text]") {
  const attn::GermanVocabulary pieces({"<pad>", "<s>", "</s>", "<unk>", kMark + "die",
                                       kMark + "katze", kMark + "schläf", "t", kMark, "en",
                                       kMark + "."});
  CHECK(pieces.pieces());
  CHECK(pieces.begins_word(4));
  CHECK_FALSE(pieces.begins_word(7));
  // "die katze schläft", a lone mark starting a word of "en", <unk> (a word of its own), ".".
  const std::vector<int> ids{4, 5, 6, 7, 8, 9, 3, 10};
  const std::vector<std::string> english{"the", "cat", "sleeps", "zqx", "."};
  Matrix w = Matrix::Zero(9, 5);
  for (int t = 0; t < 9; ++t) w(t, t % 5) = 1.0f;  // step t looks only at English token t mod 5
  w(6, 1) = 0.4f;                                  // the <unk> step: largest on "zqx" (3)
  w(6, 3) = 0.6f;
  const attn::ReadableTranslation r =
      attn::readable_translation(translation_of(ids, w), pieces, english);
  CHECK(r.words == std::vector<std::string>{"die", "katze", "schläft", "en", "zqx", "."});
  CHECK(r.first_piece == std::vector<int>{0, 1, 2, 4, 6, 7, 8});
  CHECK(r.copied == std::vector<int>{-1, -1, -1, -1, 3, -1});
  REQUIRE(r.weights.rows() == 7);
  // "schläft" is steps 2 and 3: half on token 2, half on token 3.
  CHECK(r.weights(2, 2) == Approx(0.5f));
  CHECK(r.weights(2, 3) == Approx(0.5f));
  // The word of steps 4 and 5 ("▁" and "en"): rows on tokens 4 and 0.
  CHECK(r.weights(3, 4) == Approx(0.5f));
  CHECK(r.weights(3, 0) == Approx(0.5f));
  // <unk> at step 6: its own row, 0.4 on token 1 and 0.6 on token 3 ("zqx").
  CHECK(r.weights(4, 1) == Approx(0.4f));
  CHECK(r.weights(4, 3) == Approx(0.6f));
  for (Eigen::Index k = 0; k < r.weights.rows(); ++k) {
    CHECK(r.weights.row(k).sum() == Approx(1.0f));
  }
  CHECK(r.weights.row(6) == w.row(8));  // the </s> row as the model wrote it
}

TEST_CASE("readable translation: ids and rows that do not fit are refused", "[translation-text]") {
  const attn::GermanVocabulary words({"<pad>", "<s>", "</s>", "<unk>", "das"});
  CHECK_THROWS_WITH(attn::readable_translation(translation_of({5}, Matrix(2, 0)), words, {"a"}),
                    Contains("id 5 is outside the vocabulary of 5"));
  CHECK_THROWS_WITH(
      attn::readable_translation(translation_of({4}, Matrix::Zero(2, 3)), words, {"a", "b"}),
      Contains("the weights are 2x3 but 1 ids and 2 English tokens need 2x2"));
  CHECK_THROWS_WITH(attn::GermanVocabulary({"<pad>", "<s>", "</s>", "<unk>"}),
                    Contains("at least one entry"));
}

TEST_CASE("readable translation: a lone mark never makes an empty word", "[translation-text]") {
  const attn::GermanVocabulary pieces(
      {"<pad>", "<s>", "</s>", "<unk>", kMark + "die", kMark + "katze", kMark, kMark + "."});
  const std::vector<std::string> english{"the", "cat", "."};
  const auto uniform = [](int rows) { return Matrix::Constant(rows, 3, 1.0f / 3); };

  SECTION("a mark before a piece that begins a word joins that word") {
    const attn::ReadableTranslation r =
        attn::readable_translation(translation_of({4, 6, 5, 7}, uniform(5)), pieces, english);
    CHECK(r.words == std::vector<std::string>{"die", "katze", "."});
    CHECK(r.first_piece == std::vector<int>{0, 1, 3, 4});
  }
  SECTION("a mark at the end joins the word before") {
    const attn::ReadableTranslation r =
        attn::readable_translation(translation_of({4, 5, 6}, uniform(4)), pieces, english);
    CHECK(r.words == std::vector<std::string>{"die", "katze"});
    CHECK(r.first_piece == std::vector<int>{0, 1, 3});
    CHECK(r.weights.rows() == 3);
  }
  SECTION("marks alone are no word") {
    const attn::ReadableTranslation r =
        attn::readable_translation(translation_of({6, 6}, uniform(3)), pieces, english);
    CHECK(r.words.empty());
    CHECK(r.first_piece == std::vector<int>{2});
    CHECK(r.weights.rows() == 1);
  }
}

TEST_CASE("word rows: each word the mean of its pieces' rows, then the </s> row",
          "[translation-text]") {
  Matrix pieces(4, 2);
  pieces << 1.0f, 0.0f,  // word 0, piece 0
      0.0f, 1.0f,        // word 0, piece 1
      0.5f, 0.5f,        // word 1
      0.2f, 0.8f;        // </s>
  Matrix expected(3, 2);
  expected << 0.5f, 0.5f, 0.5f, 0.5f, 0.2f, 0.8f;
  CHECK(attn::word_rows(pieces, {0, 2, 3}) == expected);
  // No words: the </s> row alone.
  CHECK(attn::word_rows(pieces.bottomRows(1), {0}) == pieces.bottomRows(1));
  SECTION("first pieces that do not split the rows are refused") {
    CHECK_THROWS_WITH(attn::word_rows(pieces, {0, 2}), Contains("do not split 3 ids"));
    CHECK_THROWS_WITH(attn::word_rows(pieces, {0, 0, 3}), Contains("do not split"));
    CHECK_THROWS_WITH(attn::word_rows(pieces, {}), Contains("do not split"));
  }
}

// A translation as a learner reads it: the German words the model's ids spell, with the English
// word copied in where the model wrote <unk>, and each word's attention row. The page, Node and
// the native tools all read a translation through this one function, so that a model gives the
// same German everywhere. docs/translation.md, "Words and pieces".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "attn/matrix.hpp"
#include "attn/translator.hpp"

namespace attn {

// The mark a subword piece begins with when it begins a word (SentencePiece's U+2581).
inline constexpr std::string_view kWordStart = "\xe2\x96\x81";

// The German vocabulary of a translation model: whole words, or subword pieces of which those
// that begin a word start with kWordStart. A vocabulary is of pieces when any entry starts so.
class GermanVocabulary {
 public:
  // entries: by id, the four special ids first. Throws InvalidArgument when there are fewer than
  // five.
  explicit GermanVocabulary(std::vector<std::string> entries);

  int size() const { return static_cast<int>(entries_.size()); }
  const std::string& entry(int id) const { return entries_.at(static_cast<std::size_t>(id)); }
  bool pieces() const { return pieces_; }
  // Whether id begins a new word: every id of a word vocabulary; a piece that starts with the
  // mark; and <unk>, which stands for a whole word (the English word it copies).
  bool begins_word(int id) const;

 private:
  std::vector<std::string> entries_;
  bool pieces_ = false;
};

struct ReadableTranslation {
  std::vector<std::string> words;  // (W) the German words as one reads them
  std::vector<int> first_piece;    // (W + 1) word w is ids first_piece[w] .. first_piece[w + 1] - 1
                                   // of the translation; the last entry is the number of ids
  std::vector<int> copied;  // (W) the English token whose word stands in for a <unk> of the word,
                            // or -1 when the word holds no <unk> (or has no weights to follow)
  Matrix weights;           // (W + 1, n) row w the mean of word w's ids' attention rows, the last
                            // row the </s> step's; (W + 1, 0) for the fixed-vector model
};

// translation: what a model wrote (ids and, with attention, a weight row per id and one for
// </s>); english: the n English tokens it read. Each <unk> id becomes the English token of the
// largest weight in its row (the first of equal ones): names and numbers, which the model has no
// German for, come through as they were typed. A word of several pieces gets the mean of their
// rows: each row sums to 1, so the mean does too, and a word looks where its pieces look on
// average. No word is empty: a lone mark piece ("▁") belongs to the word that follows it, or at
// the end to the word before (ids of marks alone make no word: then first_piece is {m}). Throws
// InvalidArgument when an id is outside the vocabulary or a weight row does not have n entries.
ReadableTranslation readable_translation(const Translation& translation,
                                         const GermanVocabulary& vocabulary,
                                         const std::vector<std::string>& english);

// piece_rows: (m + 1, n) a weight row per id and the </s> step's last; first_piece: (W + 1) as in
// ReadableTranslation, word w the ids first_piece[w] .. first_piece[w + 1] - 1 and the last entry
// m -> (W + 1, n): each word's row the mean of its ids' rows, then the </s> step's row. The one
// way a word of several pieces gets a row, for any attention (a model's, or one head's). Throws
// InvalidArgument when first_piece does not split the m ids (empty, decreasing, or not ending at
// piece_rows.rows() - 1). A word of no ids (two equal entries) is not allowed either.
Matrix word_rows(const Matrix& piece_rows, const std::vector<int>& first_piece);

}  // namespace attn

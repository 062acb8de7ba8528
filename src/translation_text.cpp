#include "attn/translation_text.hpp"

#include <algorithm>
#include <utility>

#include "checks.hpp"

namespace attn {
namespace {

constexpr const char* kWhere = "readable_translation";

bool starts_with_mark(const std::string& entry) {
  return entry.compare(0, kWordStart.size(), kWordStart) == 0;
}

// The entry's text without its word-start mark.
std::string without_mark(const std::string& entry) {
  return starts_with_mark(entry) ? entry.substr(kWordStart.size()) : entry;
}

}  // namespace

GermanVocabulary::GermanVocabulary(std::vector<std::string> entries)
    : entries_(std::move(entries)) {
  if (entries_.size() <= static_cast<std::size_t>(kTargetUnknown) + 1) {
    detail::fail("German vocabulary", "it needs the four special ids and at least one entry, got " +
                                          std::to_string(entries_.size()));
  }
  pieces_ = std::any_of(entries_.begin(), entries_.end(), starts_with_mark);
}

bool GermanVocabulary::begins_word(int id) const {
  return !pieces_ || id == kTargetUnknown || starts_with_mark(entry(id));
}

ReadableTranslation readable_translation(const Translation& translation,
                                         const GermanVocabulary& vocabulary,
                                         const std::vector<std::string>& english) {
  const std::vector<int>& ids = translation.words;
  const auto m = static_cast<Eigen::Index>(ids.size());
  const auto n = static_cast<Eigen::Index>(english.size());
  const bool attends = translation.weights.cols() > 0;
  if (attends && (translation.weights.cols() != n || translation.weights.rows() != m + 1)) {
    detail::fail(kWhere, "the weights are " + shape_of(translation.weights) + " but " +
                             std::to_string(m) + " ids and " + std::to_string(n) +
                             " English tokens need " + shape_of(m + 1, n));
  }
  ReadableTranslation out;
  // 1. The words: an id that begins a word (or any id after none has) starts the next one, unless
  // the word before has no text yet (a lone mark, "▁", written before a piece that begins a word
  // itself): then the id continues that word, so that no word is empty.
  for (Eigen::Index t = 0; t < m; ++t) {
    const int id = ids[static_cast<std::size_t>(t)];
    if (id < 0 || id >= vocabulary.size()) {
      detail::fail(kWhere, "id " + std::to_string(id) + " is outside the vocabulary of " +
                               std::to_string(vocabulary.size()));
    }
    if (out.first_piece.empty() || (vocabulary.begins_word(id) && !out.words.back().empty())) {
      out.first_piece.push_back(static_cast<int>(t));
      out.words.emplace_back();
      out.copied.push_back(-1);
    }
    // 2. Each piece's text, or for <unk> the English token its row weighs most.
    std::string& word = out.words.back();
    if (id == kTargetUnknown && attends && n > 0) {
      Eigen::Index column = 0;
      translation.weights.row(t).maxCoeff(&column);
      word += english[static_cast<std::size_t>(column)];
      out.copied.back() = static_cast<int>(column);
    } else {
      word += vocabulary.pieces() ? without_mark(vocabulary.entry(id)) : vocabulary.entry(id);
    }
  }
  // A last word with no text (the translation ends on a lone mark) joins the word before; alone,
  // it is no word.
  if (!out.words.empty() && out.words.back().empty()) {
    out.words.pop_back();
    out.copied.pop_back();
    out.first_piece.pop_back();
  }
  out.first_piece.push_back(static_cast<int>(m));

  // 3. Each word's row, the mean of its pieces' rows, then the </s> step's row.
  out.weights = attends ? word_rows(translation.weights, out.first_piece)
                        : Matrix::Zero(static_cast<Eigen::Index>(out.words.size()) + 1, 0);
  return out;
}

Matrix word_rows(const Matrix& piece_rows, const std::vector<int>& first_piece) {
  if (first_piece.empty() || first_piece.front() < 0 ||
      std::adjacent_find(first_piece.begin(), first_piece.end(),
                         [](int a, int b) { return b <= a; }) != first_piece.end() ||
      piece_rows.rows() != static_cast<Eigen::Index>(first_piece.back()) + 1) {
    detail::fail("word_rows", "the rows are " + shape_of(piece_rows) +
                                  " but the words' first pieces do not split " +
                                  std::to_string(piece_rows.rows() - 1) + " ids and </s>");
  }
  const auto w = static_cast<Eigen::Index>(first_piece.size()) - 1;
  const auto m = static_cast<Eigen::Index>(first_piece.back());
  Matrix out(w + 1, piece_rows.cols());
  for (Eigen::Index k = 0; k < w; ++k) {
    const int first = first_piece[static_cast<std::size_t>(k)];
    const int count = first_piece[static_cast<std::size_t>(k) + 1] - first;
    out.row(k) = piece_rows.middleRows(first, count).colwise().sum() / static_cast<float>(count);
  }
  out.row(w) = piece_rows.row(m);
  return out;
}

}  // namespace attn

// A split of the translation corpus as tools/translation/make-corpus.js writes it
// (docs/translation-corpus.md, "Binary format"), read from bytes already in memory with every
// check of tools/translation/pairs-format.js.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace attn {

inline constexpr std::string_view kPairsMagic = "ATTNPAIR";
inline constexpr std::uint32_t kPairsVersion = 1;

struct SentencePair {
  int source = 0;            // 0 Ding's sentences, 1 LibreOffice's help, 2 Ding's entries, 3 games
  std::vector<int> english;  // ids < english_classes, at least one
  std::vector<int> german;   // ids in [3, german_classes): words or <unk>, at least one
};

struct TranslationPairs {
  std::uint32_t split = 0;            // 0 train, 1 validation, 2 test
  std::uint32_t english_classes = 0;  // the word vectors' words + 1
  std::uint32_t english_unknown = 0;  // < english_classes
  std::uint32_t english_hash = 0;     // fnv1a32 of the word vectors' vocabulary
  std::uint32_t german_classes = 0;   // the German vocabulary, its four special ids included
  std::uint32_t german_hash = 0;      // fnv1a32 of german-vocab.txt
  std::vector<SentencePair> pairs;
};

// bytes: a whole file. Throws InvalidArgument, saying which check failed: magic, version, split,
// 2 <= english classes <= 65536, 4 < german classes <= 65536, unknown id < english classes, at
// least one pair, every record inside the file, each side 1 or more ids, every English id below
// its classes, every German id a word or <unk> (3 <= id < german classes), a known source, token
// totals as the header says, exact size.
TranslationPairs parse_translation_pairs(const std::uint8_t* bytes, std::size_t size);

}  // namespace attn

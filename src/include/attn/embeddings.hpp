// Pre-trained word vectors: the vocabulary and the int8-quantised vectors of the asset that
// tools/make-embeddings.js writes, read from bytes already in memory. The format, the source of
// the vectors and the vector an unknown word gets are described in docs/embeddings.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "attn/matrix.hpp"

namespace attn {

// The asset's header: magic, then four little-endian uint32s (version, count, dim, the byte
// length of the vocabulary).
inline constexpr std::string_view kEmbeddingsMagic = "ATTNVECS";
inline constexpr std::uint32_t kEmbeddingsVersion = 1;
inline constexpr std::size_t kEmbeddingsHeaderBytes = 24;

// Words and their row numbers. Words are compared byte for byte: the asset's words are lower-case
// and in Unicode NFC form, and so are the tokens the page's tokenizer makes.
class Vocabulary {
 public:
  Vocabulary() = default;
  // words: distinct and non-empty, none holding a newline. Throws InvalidArgument otherwise.
  explicit Vocabulary(std::vector<std::string> words);

  int size() const { return static_cast<int>(words_.size()); }
  const std::string& word(int index) const { return words_.at(static_cast<std::size_t>(index)); }
  // The row of `word`, or -1 when the vocabulary does not hold it.
  int index_of(std::string_view word) const;
  bool contains(std::string_view word) const { return index_of(word) >= 0; }

 private:
  // Checks words_[i] and adds it to rows_. A call per word, never inlined into the loop over
  // them, for the reason Embeddings::dequantize_row gives: the hash table's inserting code,
  // inlined, would otherwise run in a WebAssembly engine's baseline code for all 20,000 words.
  [[gnu::noinline]] void add_row(std::size_t i);

  std::vector<std::string> words_;
  std::unordered_map<std::string, int> rows_;
};

// Tokens turned into vectors: one row per token, and whether the vocabulary knew it.
struct EmbeddedTokens {
  Matrix vectors;                   // (n, d)
  std::vector<std::uint8_t> known;  // (n): 1 for a vocabulary word, 0 for a fallback vector
};

class Embeddings {
 public:
  // bytes: the whole asset. Throws InvalidArgument, saying what is wrong, when the bytes are not
  // such a file (magic, version), are cut short or run on, or hold a malformed vocabulary or a
  // scale that is not a finite number > 0.
  static Embeddings parse(const std::uint8_t* bytes, std::size_t size);

  int size() const { return vocabulary_.size(); }
  int dim() const { return dim_; }
  const Vocabulary& vocabulary() const { return vocabulary_; }
  // The mean Euclidean norm of the vocabulary's (dequantised) vectors.
  float mean_norm() const { return mean_norm_; }

  // -> (d): the vector of `word`: scale x int8 entries for a vocabulary word, else fallback(word).
  Vector lookup(std::string_view word) const;
  // -> (d): the vector an unknown word gets: d unit-normal numbers from attn::Rng seeded with
  // fnv1a32(word), rescaled to length mean_norm(). The same word always gets the same vector (in
  // every build), different words nearly orthogonal ones of a typical length.
  Vector fallback(std::string_view word) const;
  // tokens: n words -> (n, d), row i the vector of tokens[i]; known[i] says which kind it is.
  EmbeddedTokens embed(const std::vector<std::string>& tokens) const;
  // -> (size(), d): row i the vector of vocabulary word i, the same numbers lookup() gives it.
  Matrix vocabulary_vectors() const;

  // row: a word's row in [0, size()), not checked -> out: (d), its vector, the same numbers
  // lookup() gives it.
  // This and row_norm are each a call of its own, never inlined into a loop over the words: a
  // WebAssembly engine first runs a function in its quick baseline code and switches to
  // optimised code from a later call, so a function called once per word goes fast after the
  // first few words, where a single call doing all 20,000 would run slowly to the end.
  [[gnu::noinline]] void dequantize_row(int row, float* out) const;

 private:
  Embeddings() = default;
  // -> sqrt(sum of the row's squares), summed in double in order; scratch: (d)
  [[gnu::noinline]] double row_norm(int row, float* scratch) const;

  Vocabulary vocabulary_;
  int dim_ = 0;
  std::vector<float> scales_;       // (count)
  std::vector<std::int8_t> codes_;  // (count, d), row-major
  float mean_norm_ = 0.0f;
};

// 32-bit FNV-1a hash of the bytes of `text` (offset basis 2166136261, prime 16777619). Given the
// hash of some bytes before `text`, the hash of them and `text` together: fnv1a32(b, fnv1a32(a))
// is fnv1a32 of a followed by b.
std::uint32_t fnv1a32(std::string_view text, std::uint32_t hash = 2166136261u);

}  // namespace attn

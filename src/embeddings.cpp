#include "attn/embeddings.hpp"

#include <cmath>
#include <cstring>
#include <utility>

#include "attn/random.hpp"
#include "checks.hpp"
#include "little_endian.hpp"

namespace attn {
namespace {

constexpr const char* kWhere = "embeddings";
// Bounds that keep every size computation far from overflow; the asset is 20007 x 100.
constexpr std::uint32_t kMaxCount = 1u << 26;
constexpr std::uint32_t kMaxDim = 1u << 16;

using detail::read_f32;
using detail::read_u32;

// The first bytes of a file, printable, for the message about a wrong magic.
std::string printable(const std::uint8_t* bytes, std::size_t size) {
  std::string out;
  for (std::size_t i = 0; i < size; ++i) {
    const auto c = static_cast<char>(bytes[i]);
    out += (bytes[i] >= 0x20 && bytes[i] < 0x7f) ? std::string(1, c) : std::string("?");
  }
  return out;
}

std::string quoted(std::string_view word) { return "\"" + std::string(word) + "\""; }

// Splits the vocabulary section, where every word ends with '\n'.
std::vector<std::string> split_words(const std::uint8_t* bytes, std::size_t size,
                                     std::uint32_t count) {
  if (size == 0 || bytes[size - 1] != '\n') {
    detail::fail(kWhere, "the vocabulary must end with a newline after its last word");
  }
  std::vector<std::string> words;
  words.reserve(count);
  // One memchr call per word rather than one loop over every byte: in WebAssembly a loop in a
  // function called once stays in baseline code, while memchr runs optimised after a few words.
  const std::uint8_t* const end = bytes + size;
  for (const std::uint8_t* start = bytes; start < end;) {
    // Never null: the last byte is a newline.
    const auto* newline = static_cast<const std::uint8_t*>(
        std::memchr(start, '\n', static_cast<std::size_t>(end - start)));
    if (words.size() == count) {
      detail::fail(kWhere, "the vocabulary holds more than the " + std::to_string(count) +
                               " words the header announces");
    }
    words.emplace_back(reinterpret_cast<const char*>(start),
                       static_cast<std::size_t>(newline - start));
    start = newline + 1;
  }
  if (words.size() != count) {
    detail::fail(kWhere, "the vocabulary holds " + std::to_string(words.size()) +
                             " words but the header announces " + std::to_string(count));
  }
  return words;
}

}  // namespace

Vocabulary::Vocabulary(std::vector<std::string> words) : words_(std::move(words)) {
  rows_.reserve(words_.size());
  // Through a pointer, not a direct call: the WebAssembly build's link-time optimiser ignores
  // noinline and inlines every function that has a single caller.
  static void (Vocabulary::*volatile const add)(std::size_t) = &Vocabulary::add_row;
  for (std::size_t i = 0; i < words_.size(); ++i) (this->*add)(i);
}

void Vocabulary::add_row(std::size_t i) {
  const std::string& word = words_[i];
  if (word.empty()) {
    throw InvalidArgument("vocabulary: word " + std::to_string(i) + " is empty");
  }
  if (word.find('\n') != std::string::npos) {
    throw InvalidArgument("vocabulary: word " + std::to_string(i) + " holds a newline");
  }
  const auto [at, added] = rows_.emplace(word, static_cast<int>(i));
  if (!added) {
    throw InvalidArgument("vocabulary: the word " + quoted(word) + " appears twice, as words " +
                          std::to_string(at->second) + " and " + std::to_string(i));
  }
}

int Vocabulary::index_of(std::string_view word) const {
  const auto at = rows_.find(std::string(word));
  return at == rows_.end() ? -1 : at->second;
}

Embeddings Embeddings::parse(const std::uint8_t* bytes, std::size_t size) {
  // 1. The header: a file of another kind or one cut short is named as such, before any size in
  //    it is trusted.
  if (bytes == nullptr || size < kEmbeddingsHeaderBytes) {
    detail::fail(kWhere, "the file has " + std::to_string(size) + " bytes, fewer than the " +
                             std::to_string(kEmbeddingsHeaderBytes) +
                             " of the header: it is truncated or not a word-vector file");
  }
  if (std::memcmp(bytes, kEmbeddingsMagic.data(), kEmbeddingsMagic.size()) != 0) {
    detail::fail(kWhere, "not a word-vector file: it starts with \"" +
                             printable(bytes, kEmbeddingsMagic.size()) + "\", not \"" +
                             std::string(kEmbeddingsMagic) + "\"");
  }
  const std::uint32_t version = read_u32(bytes + 8);
  const std::uint32_t count = read_u32(bytes + 12);
  const std::uint32_t dim = read_u32(bytes + 16);
  const std::uint32_t vocabulary_bytes = read_u32(bytes + 20);
  if (version != kEmbeddingsVersion) {
    detail::fail(kWhere, "format version " + std::to_string(version) +
                             " is not supported; this build reads version " +
                             std::to_string(kEmbeddingsVersion));
  }
  if (count < 1 || count > kMaxCount || dim < 1 || dim > kMaxDim) {
    detail::fail(kWhere, "the header says count=" + std::to_string(count) +
                             " and dim=" + std::to_string(dim) + "; count must be 1 to " +
                             std::to_string(kMaxCount) + " and dim 1 to " +
                             std::to_string(kMaxDim));
  }

  // 2. The sections' places, from the header alone (in 64 bits: no size here can overflow). The
  //    scales start on a multiple of 4 bytes, after zero to three bytes of padding.
  const std::uint64_t vocabulary_end = kEmbeddingsHeaderBytes + std::uint64_t{vocabulary_bytes};
  const std::uint64_t scales_at = (vocabulary_end + 3) / 4 * 4;
  const std::uint64_t codes_at = scales_at + 4 * std::uint64_t{count};
  const std::uint64_t expected = codes_at + std::uint64_t{count} * dim;
  if (size != expected) {
    detail::fail(kWhere, "the file has " + std::to_string(size) + " bytes but its header (count=" +
                             std::to_string(count) + ", dim=" + std::to_string(dim) +
                             ", vocabulary of " + std::to_string(vocabulary_bytes) +
                             " bytes) describes " + std::to_string(expected) +
                             (size < expected ? ": it is truncated" : ": it has extra bytes"));
  }

  // 3. The vocabulary, then one scale per word and count x dim int8 entries.
  Embeddings out;
  out.vocabulary_ =
      Vocabulary(split_words(bytes + kEmbeddingsHeaderBytes, vocabulary_bytes, count));
  out.dim_ = static_cast<int>(dim);
  out.scales_.resize(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const float scale = read_f32(bytes + scales_at + 4 * std::uint64_t{i});
    if (!(scale > 0.0f) || !std::isfinite(scale)) {
      detail::fail(kWhere, "the scale of word " + std::to_string(i) + " (" +
                               quoted(out.vocabulary_.word(static_cast<int>(i))) + ") is " +
                               std::to_string(scale) + "; scales must be finite and > 0");
    }
    out.scales_[i] = scale;
  }
  // Copied in one go, without zeroing the 2 MB first (a loop that would run in baseline code).
  const auto* codes = reinterpret_cast<const std::int8_t*>(bytes + codes_at);
  out.codes_.assign(codes, codes + std::size_t{count} * dim);

  // 4. The mean norm, the length given to an unknown word's vector. Summed in double in a fixed
  //    order, so that native and wasm builds agree to the bit.
  std::vector<float> row(dim);
  double total = 0.0;
  for (std::uint32_t i = 0; i < count; ++i) total += out.row_norm(static_cast<int>(i), row.data());
  out.mean_norm_ = static_cast<float>(total / count);
  return out;
}

Matrix Embeddings::vocabulary_vectors() const {
  Matrix out(size(), dim_);
  for (int i = 0; i < size(); ++i) dequantize_row(i, out.row(i).data());
  return out;
}

double Embeddings::row_norm(int row, float* scratch) const {
  dequantize_row(row, scratch);
  double squares = 0.0;
  for (int k = 0; k < dim_; ++k) squares += static_cast<double>(scratch[k]) * scratch[k];
  return std::sqrt(squares);
}

void Embeddings::dequantize_row(int row, float* out) const {
  const float scale = scales_[static_cast<std::size_t>(row)];
  const std::int8_t* codes = codes_.data() + static_cast<std::size_t>(row) * dim_;
  for (int k = 0; k < dim_; ++k) out[k] = scale * static_cast<float>(codes[k]);
}

Vector Embeddings::lookup(std::string_view word) const {
  const int row = vocabulary_.index_of(word);
  if (row < 0) return fallback(word);
  Vector v(dim_);
  dequantize_row(row, v.data());
  return v;
}

Vector Embeddings::fallback(std::string_view word) const {
  // 1. A direction of its own for each word: unit normals seeded by the word's hash (every
  //    direction equally likely, so two unknown words are nearly orthogonal).
  Rng rng(fnv1a32(word));
  std::vector<double> draw(static_cast<std::size_t>(dim_));
  double squares = 0.0;
  for (double& x : draw) {
    x = rng.unit_normal();
    squares += x * x;
  }
  // 2. The length of a typical vocabulary vector, so that its dot products are neither
  //    negligible nor dominant in the attention scores.
  const double factor = mean_norm_ / std::sqrt(squares);
  Vector v(dim_);
  for (int k = 0; k < dim_; ++k)
    v[k] = static_cast<float>(draw[static_cast<std::size_t>(k)] * factor);
  return v;
}

EmbeddedTokens Embeddings::embed(const std::vector<std::string>& tokens) const {
  EmbeddedTokens out{Matrix(static_cast<Eigen::Index>(tokens.size()), dim_),
                     std::vector<std::uint8_t>(tokens.size())};
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const int row = vocabulary_.index_of(tokens[i]);
    const auto r = static_cast<Eigen::Index>(i);
    if (row >= 0) {
      dequantize_row(row, out.vectors.row(r).data());
      out.known[i] = 1;
    } else {
      out.vectors.row(r) = fallback(tokens[i]).transpose();
    }
  }
  return out;
}

std::uint32_t fnv1a32(std::string_view text, std::uint32_t hash) {
  for (const char c : text) {
    hash ^= static_cast<std::uint8_t>(c);
    hash *= 16777619u;
  }
  return hash;
}

}  // namespace attn

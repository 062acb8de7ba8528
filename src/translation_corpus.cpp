#include "attn/translation_corpus.hpp"

#include <string>

#include "checks.hpp"
#include "little_endian.hpp"

namespace attn {
namespace {

constexpr const char* kWhere = "translation pairs";
constexpr std::size_t kHeaderBytes = 48, kRecordBytes = 6;

using detail::read_u16;
using detail::read_u32;

}  // namespace

TranslationPairs parse_translation_pairs(const std::uint8_t* bytes, std::size_t size) {
  if (!bytes || size < kHeaderBytes) detail::fail(kWhere, "the file is truncated");
  if (std::string_view(reinterpret_cast<const char*>(bytes), 8) != kPairsMagic) {
    detail::fail(kWhere, "the magic is not ATTNPAIR");
  }
  const std::uint32_t version = read_u32(bytes + 8);
  if (version != kPairsVersion) {
    detail::fail(kWhere, "format version " + std::to_string(version) + ", expected " +
                             std::to_string(kPairsVersion));
  }
  TranslationPairs out;
  out.split = read_u32(bytes + 12);
  const std::uint32_t count = read_u32(bytes + 16);
  out.english_classes = read_u32(bytes + 20);
  out.english_unknown = read_u32(bytes + 24);
  out.english_hash = read_u32(bytes + 28);
  out.german_classes = read_u32(bytes + 32);
  out.german_hash = read_u32(bytes + 36);
  const std::uint64_t english_tokens = read_u32(bytes + 40), german_tokens = read_u32(bytes + 44);
  if (out.split > 2) detail::fail(kWhere, "unknown split " + std::to_string(out.split));
  if (out.english_classes < 2 || out.english_classes > 65536) {
    detail::fail(kWhere,
                 "English classes " + std::to_string(out.english_classes) + " outside 2 ... 65536");
  }
  if (out.german_classes <= 4 || out.german_classes > 65536) {
    detail::fail(kWhere,
                 "German classes " + std::to_string(out.german_classes) + " outside 5 ... 65536");
  }
  if (out.english_unknown >= out.english_classes) {
    detail::fail(kWhere, "English unknown id " + std::to_string(out.english_unknown) +
                             " is not below its classes");
  }
  if (count == 0) detail::fail(kWhere, "the file holds no pairs");
  // Sizes in 64 bits: no header value can overflow them.
  const std::uint64_t expected = kHeaderBytes + kRecordBytes * static_cast<std::uint64_t>(count) +
                                 2 * (english_tokens + german_tokens);
  if (size < expected) detail::fail(kWhere, "the file is truncated");
  if (size > expected) detail::fail(kWhere, "the file has extra bytes");

  out.pairs.resize(count);
  std::size_t at = kHeaderBytes;
  std::uint64_t english_seen = 0, german_seen = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::string which = "pair " + std::to_string(i);
    if (at + kRecordBytes > size) detail::fail(kWhere, which + " is truncated");
    const int n_english = read_u16(bytes + at), n_german = read_u16(bytes + at + 2);
    SentencePair& pair = out.pairs[i];
    pair.source = read_u16(bytes + at + 4);
    at += kRecordBytes;
    if (pair.source > 3)
      detail::fail(kWhere, which + ": unknown source " + std::to_string(pair.source));
    if (n_english == 0 || n_german == 0) detail::fail(kWhere, which + " has an empty side");
    if (at + 2 * static_cast<std::size_t>(n_english + n_german) > size) {
      detail::fail(kWhere, which + " runs past the end of the file");
    }
    pair.english.resize(static_cast<std::size_t>(n_english));
    pair.german.resize(static_cast<std::size_t>(n_german));
    for (int& id : pair.english) {
      id = read_u16(bytes + at);
      at += 2;
      if (static_cast<std::uint32_t>(id) >= out.english_classes) {
        detail::fail(kWhere, which + ": English id " + std::to_string(id) + " is not below " +
                                 std::to_string(out.english_classes));
      }
    }
    for (int& id : pair.german) {
      id = read_u16(bytes + at);
      at += 2;
      if (id < 3 || static_cast<std::uint32_t>(id) >= out.german_classes) {
        detail::fail(kWhere, which + ": German id " + std::to_string(id) +
                                 " is not a word or <unk> (3 ... " +
                                 std::to_string(out.german_classes - 1) + ")");
      }
    }
    english_seen += static_cast<std::uint64_t>(n_english);
    german_seen += static_cast<std::uint64_t>(n_german);
  }
  if (english_seen != english_tokens || german_seen != german_tokens || at != size) {
    detail::fail(kWhere, "the pairs do not add up to the token totals of the header");
  }
  return out;
}

}  // namespace attn

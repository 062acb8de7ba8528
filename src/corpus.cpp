#include "attn/corpus.hpp"

#include <cstring>
#include <string>

#include "checks.hpp"
#include "little_endian.hpp"

namespace attn {

namespace {

constexpr const char* kWhere = "corpus";

using detail::read_u32;

}  // namespace

std::size_t Corpus::tokens() const {
  std::size_t n = 0;
  for (const auto& s : samples) n += s.size();
  return n;
}

Corpus parse_corpus(const std::uint8_t* bytes, std::size_t size) {
  if (size < 8 || bytes == nullptr || std::memcmp(bytes, kCorpusMagic.data(), 8) != 0) {
    detail::fail(kWhere, "not a corpus file (its first 8 bytes are not \"ATTNCORP\")");
  }
  if (size < 36) detail::fail(kWhere, "truncated: " + std::to_string(size) + " bytes");
  Corpus c;
  const std::uint32_t version = read_u32(bytes + 8);
  if (version != kCorpusVersion) {
    detail::fail(kWhere, "version " + std::to_string(version) + " is not supported (only 1)");
  }
  c.split = read_u32(bytes + 12);
  if (c.split > 2) detail::fail(kWhere, "split " + std::to_string(c.split) + " is not 0, 1 or 2");
  c.classes = read_u32(bytes + 16);
  if (c.classes < 2 || c.classes > 65536) {
    detail::fail(kWhere, "classes is " + std::to_string(c.classes) + "; it must be 2 to 65536");
  }
  c.unknown_id = read_u32(bytes + 20);
  if (c.unknown_id >= c.classes) detail::fail(kWhere, "unknownId is not below classes");
  c.vocab_hash = read_u32(bytes + 24);
  const std::uint64_t samples = read_u32(bytes + 28), tokens = read_u32(bytes + 32);
  if (samples < 1) detail::fail(kWhere, "it has no sample");
  const std::uint64_t expected = 36 + 4 * samples + 4 * (samples + 1) + 2 * tokens;
  if (size < expected) {
    detail::fail(kWhere, "truncated: " + std::to_string(size) + " bytes, its header needs " +
                             std::to_string(expected));
  }
  if (size > expected) {
    detail::fail(kWhere, "has extra bytes: " + std::to_string(size) + " bytes, its header needs " +
                             std::to_string(expected));
  }
  const std::uint8_t* p = bytes + 36;
  for (std::uint64_t i = 0; i < samples; ++i, p += 4) {
    const std::uint32_t source = read_u32(p);
    if (i > 0 && source <= c.sources.back()) {
      detail::fail(kWhere, "source indices are not strictly increasing");
    }
    c.sources.push_back(source);
  }
  std::vector<std::uint32_t> offsets;
  for (std::uint64_t i = 0; i <= samples; ++i, p += 4) offsets.push_back(read_u32(p));
  if (offsets.front() != 0 || offsets.back() != tokens) {
    detail::fail(kWhere, "offsets must run from 0 to the token count");
  }
  for (std::uint64_t i = 0; i < samples; ++i) {
    if (offsets[i + 1] <= offsets[i]) {
      detail::fail(kWhere, "offsets are not strictly increasing (sample " + std::to_string(i) +
                               " is empty or negative)");
    }
  }
  const std::uint8_t* ids = p;
  for (std::uint64_t i = 0; i < samples; ++i) {
    std::vector<int> sample;
    sample.reserve(offsets[i + 1] - offsets[i]);
    for (std::uint32_t t = offsets[i]; t < offsets[i + 1]; ++t) {
      const std::uint32_t id = static_cast<std::uint32_t>(ids[2 * t] | (ids[2 * t + 1] << 8));
      if (id >= c.classes) {
        detail::fail(kWhere, "id " + std::to_string(id) + " at token " + std::to_string(t) +
                                 " is not below classes (" + std::to_string(c.classes) + ")");
      }
      sample.push_back(static_cast<int>(id));
    }
    c.samples.push_back(std::move(sample));
  }
  return c;
}

}  // namespace attn

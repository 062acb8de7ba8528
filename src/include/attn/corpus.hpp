// A corpus split as tools/make-corpus.js writes it (docs/corpus.md, "File format, version 1"),
// read from bytes already in memory with every check of web/src/text/corpus.js.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace attn {

inline constexpr std::string_view kCorpusMagic = "ATTNCORP";
inline constexpr std::uint32_t kCorpusVersion = 1;

struct Corpus {
  std::uint32_t split = 0;                // 0 train, 1 validation, 2 test
  std::uint32_t classes = 0;              // ids are < classes
  std::uint32_t unknown_id = 0;           // < classes
  std::uint32_t vocab_hash = 0;           // fnv1a32 of the vocabulary the ids index
  std::vector<std::uint32_t> sources;     // (samples) index of each sample in the source corpus
  std::vector<std::vector<int>> samples;  // each sample's ids, none empty
  std::size_t tokens() const;
};

// bytes: a whole file. Throws InvalidArgument, saying which check failed: magic, version, split,
// 2 <= classes <= 65536, unknown_id < classes, at least one sample, exact size (truncated / extra
// bytes), source indices strictly increasing, offsets from 0 to tokens strictly increasing (no
// empty sample), every id < classes.
Corpus parse_corpus(const std::uint8_t* bytes, std::size_t size);

}  // namespace attn

// Input checks shared by the translation models (translator.cpp, transformer_translator.cpp):
// their sentences, batches and translate() requests. Private to src/.
#pragma once

#include <string>
#include <vector>

#include "attn/translator.hpp"
#include "checks.hpp"

namespace attn::detail {

// Throws unless ids (one sentence, named `name` in the message) has a length in
// [shortest, longest] and every id in [lowest_id, highest_id].
inline void check_sentence(const char* where, const std::string& name, const std::vector<int>& ids,
                           long shortest, long longest, int lowest_id, int highest_id) {
  const auto length = static_cast<long>(ids.size());
  if (length < shortest || length > longest) {
    fail(where, name + " has " + std::to_string(length) + " tokens; it needs " +
                    std::to_string(shortest) + " to " + std::to_string(longest));
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < lowest_id || ids[i] > highest_id) {
      fail(where, name + " has id " + std::to_string(ids[i]) + " at " + std::to_string(i) +
                      ", outside " + std::to_string(lowest_id) + ".." + std::to_string(highest_id));
    }
  }
}

// Throws unless the batch has at least one pair, as many targets as sources, and every pair
// fits: English of 1 to kMaxTranslationLength ids in [0, source_words] (source_words: the
// unknown word), German of 0 to kMaxTranslationLength - 1 word ids in
// [kTargetEnd + 1, target_words - 1] (</s> follows it in the model).
inline void check_translation_batch(const char* where, const TranslationBatch& batch,
                                    int source_words, int target_words) {
  if (batch.sources.empty() || batch.targets.size() != batch.sources.size()) {
    fail(where, "a batch needs at least one pair and as many targets as sources, got " +
                    std::to_string(batch.sources.size()) + " sources and " +
                    std::to_string(batch.targets.size()) + " targets");
  }
  for (size_t b = 0; b < batch.sources.size(); ++b) {
    check_sentence(where, "source " + std::to_string(b), batch.sources[b], 1, kMaxTranslationLength,
                   0, source_words);
    check_sentence(where, "target " + std::to_string(b), batch.targets[b], 0,
                   kMaxTranslationLength - 1, kTargetEnd + 1, target_words - 1);
  }
}

// Throws unless translate() may run: an English sentence as check_translation_batch takes one,
// max_words in [0, kMaxTranslationLength) and beam in [1, kMaxBeam].
inline void check_translate_request(const char* where, const std::vector<int>& source,
                                    int source_words, int max_words, int beam) {
  check_sentence(where, "the sentence", source, 1, kMaxTranslationLength, 0, source_words);
  if (max_words < 0 || max_words >= kMaxTranslationLength) {
    fail(where, "max_words must be between 0 and " + std::to_string(kMaxTranslationLength - 1) +
                    ", got " + std::to_string(max_words));
  }
  if (beam < 1 || beam > kMaxBeam) {
    fail(where, "beam must be between 1 and " + std::to_string(kMaxBeam) + ", got " +
                    std::to_string(beam));
  }
}

}  // namespace attn::detail

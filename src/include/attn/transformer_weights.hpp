// The trained Transformer translator as a file: the German vocabulary and the model in the core's
// weights file (weights_file.hpp), written and read from bytes in memory. Every parameter is
// stored as 8-bit rows with a float32 scale each (x = scale * code, scale = max |x| / 127), as
// the recurrent translators' are: float16 would double the file (two bytes a value) past what
// the page's service worker caches, and the model that is measured is the dequantised one read
// back. The place of the layer norms is the number post_layer_norm, 1 in a post-LN model's file;
// a file without it is pre-LN. docs/transformer.md lists what the file holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "attn/transformer_translator.hpp"

namespace attn {

// The kind of file (WeightsFile::kind) the Transformer translator is.
inline constexpr std::string_view kTransformerTranslatorKind = "transformer-translator";

struct TransformerTranslatorWeights {
  TransformerTranslatorConfig config;  // the sizes and the norms' place; seed unset
  std::uint32_t english_hash = 0;
  std::vector<std::string> german_words;  // (target_words) by id, the four special ids first
  std::vector<MatrixT<float>> values;     // one per parameter, dequantised
  std::vector<std::string> names;         // theirs, as the file names them
};

// The model and the German vocabulary -> the bytes of the file. vocabulary: the German words by
// id, each followed by a newline, target_words of them. english_hash: fnv1a32 of the word
// vectors' vocabulary (vocabulary_hash in lm_weights.hpp). Throws InvalidArgument on a vocabulary
// of the wrong size or with a word twice or empty, or a value that is not finite.
std::vector<std::uint8_t> encode_transformer_translator(TransformerTranslator<float>& model,
                                                        const std::string& vocabulary,
                                                        std::uint32_t english_hash);

// bytes: a whole file. Throws InvalidArgument, saying what is wrong, on a file the weights file
// refuses (parse_weights_file), a file of another kind, a size missing or out of range or a
// config check_transformer_translator_config refuses, a post_layer_norm other than 0 or 1, a
// vocabulary that is not target_words distinct non-empty lines, a tensor missing, of the wrong
// shape or left unread.
TransformerTranslatorWeights parse_transformer_translator(const std::uint8_t* bytes,
                                                          std::size_t size);

// -> the model of the file (TransformerTranslator::from_weights: no seeded weights drawn, no
// gradients allocated) on word_vectors (source_words, source_width). Throws InvalidArgument when
// the word vectors do not fit or a tensor's name is not its parameter's.
TransformerTranslator<float> make_transformer_translator(
    const TransformerTranslatorWeights& weights,
    std::shared_ptr<const MatrixT<float>> word_vectors);

}  // namespace attn

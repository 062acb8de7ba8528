// The trained translation models as the page ships them: the German vocabulary and one or both
// models in the core's weights file (weights_file.hpp), written and read from bytes in memory.
// Every parameter is stored as 8-bit rows with a float32 scale each (x = scale * code, scale =
// max |x| / 127), so the model the page runs is exactly the dequantised one the evaluation
// measured. docs/translation.md lists what the file holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "attn/translator.hpp"

namespace attn {

// The kind of file (WeightsFile::kind) the translators are.
inline constexpr std::string_view kTranslatorsKind = "translators";

struct TranslatorWeights {
  TranslatorConfig config;  // the shapes both models share; bridge and seed unset
  std::uint32_t english_hash = 0;
  std::vector<std::string> german_words;  // (target_words) by id, the four special ids first
  struct Model {
    Bridge bridge = Bridge::attention;
    std::vector<MatrixT<float>> values;  // one per parameter, dequantised
    std::vector<std::string> names;      // theirs, as the file names them (without the bridge)
  };
  std::vector<Model> models;  // 1 or 2, each bridge at most once, in file order
};

// text: the German vocabulary as a file holds it, each word followed by a newline -> the words, in
// order. Throws InvalidArgument, naming `where`, when the last word has no newline. Every
// translation model's file keeps its vocabulary so.
std::vector<std::string> german_vocabulary_words(std::string_view text, const char* where);

struct WeightsFile;

// The two vocabularies every translation model's file names (the recurrent translators' and the
// Transformer's): vocabulary, the German words by id each followed by a newline, goes into
// file's text "german_vocabulary" and english_hash into its number "english_hash". `models` names
// the model(s) in the message. Throws InvalidArgument, naming `where`, unless the vocabulary holds
// target_words distinct non-empty words.
void add_translation_vocabularies(WeightsFile& file, const std::string& vocabulary,
                                  std::uint32_t english_hash, int target_words, const char* models,
                                  const char* where);

// file: parsed -> the English hash and the German words it names, checked as above.
void read_translation_vocabularies(const WeightsFile& file, int target_words, const char* where,
                                   std::uint32_t& english_hash,
                                   std::vector<std::string>& german_words);

// The models (of one shape, different bridges) and the German vocabulary -> the bytes of the
// file. vocabulary: the German words by id, each followed by a newline, target_words of them.
// english_hash: fnv1a32 of the word vectors' vocabulary (vocabulary_hash in lm_weights.hpp).
// Throws InvalidArgument on no model or more than two, shapes that differ, a bridge twice, a
// vocabulary of the wrong size, or a value that is not finite.
std::vector<std::uint8_t> encode_translators(const std::vector<Translator<float>*>& models,
                                             const std::string& vocabulary,
                                             std::uint32_t english_hash);

// bytes: a whole file. Throws InvalidArgument, saying what is wrong, on a file the weights file
// refuses (parse_weights_file), a file of another kind, a size missing or out of range, a
// vocabulary that is not target_words distinct non-empty lines, no model, a tensor of the wrong
// shape or name, or a tensor no model reads.
TranslatorWeights parse_translators(const std::uint8_t* bytes, std::size_t size);

// -> the model of `bridge` from the file (Translator::from_weights: no seeded weights drawn, no
// gradients allocated), on word_vectors (source_words, source_width), which models of one file
// can share. Throws InvalidArgument when the file has no such model or the word vectors do not
// fit.
Translator<float> make_translator(const TranslatorWeights& weights, Bridge bridge,
                                  std::shared_ptr<const MatrixT<float>> word_vectors);
Translator<float> make_translator(const TranslatorWeights& weights, Bridge bridge,
                                  MatrixT<float> word_vectors);

}  // namespace attn

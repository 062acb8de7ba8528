// The trained language model's weights as the page ships them, in the core's weights file
// (weights_file.hpp), written and read from bytes in memory. Every parameter is stored as IEEE 754
// half precision (float16), named as LanguageModel::parameters() names it, so the model the page
// runs is exactly the dequantised one the training tool measured. docs/language-model.md lists
// what the file holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "attn/embeddings.hpp"
#include "attn/language_model.hpp"
#include "attn/weights_file.hpp"

namespace attn {

// The kind of file (WeightsFile::kind) the language model is.
inline constexpr std::string_view kLanguageModelKind = "language-model";

// The (rows, cols) of every parameter of a model of this config, in the order of
// LanguageModel::parameters(): W_in, b_in, P, per block norm1.gain, norm1.bias, W_q, b_q, W_k,
// b_k, W_v, b_v, W_o, b_o, norm2.gain, norm2.bias, W_1, b_1, W_2, b_2, then final_norm.gain,
// final_norm.bias, W_out, b_out.
std::vector<std::pair<int, int>> language_model_parameter_shapes(const LanguageModelConfig& config);

// The number of values of all of them.
std::size_t language_model_parameter_count(const LanguageModelConfig& config);

struct LanguageModelWeights {
  LanguageModelConfig config;  // seed is 0: the file holds trained weights, not a seed
  std::uint32_t vocab_hash = 0;
  std::vector<MatrixT<float>> values;  // one per parameter, shapes as above, dequantised
  std::vector<std::string> names;      // theirs, as the file names them
};

// model's parameters -> the bytes of the file. vocab_hash: fnv1a32 of the vocabulary's bytes as
// the word-vector file stores them (docs/corpus.md), so a reader can check it has the right E.
// Throws InvalidArgument when a value cannot be stored (NaN, infinity, |x| >= 65520).
std::vector<std::uint8_t> encode_language_model(LanguageModel<float>& model,
                                                std::uint32_t vocab_hash);

// bytes: a whole file. Throws InvalidArgument, saying what is wrong, on a file the weights file
// refuses (parse_weights_file), a file of another kind, a size missing or out of range, or
// tensors that are not the config's parameters.
LanguageModelWeights parse_language_model_weights(const std::uint8_t* bytes, std::size_t size);

// Copies the weights into model. Throws InvalidArgument when its config (seed aside) differs or
// a parameter's name is not the file's.
void load_language_model_weights(LanguageModel<float>& model, const LanguageModelWeights& weights);

// -> the model of the weights (LanguageModel::from_weights: no seeded weights drawn), on
// word_vectors (vocab, d_embed), their values moved in. Throws InvalidArgument as from_weights
// does, or when a parameter's name is not the file's.
LanguageModel<float> make_language_model(LanguageModelWeights&& weights,
                                         MatrixT<float> word_vectors);

// The page's model reads the page's word vectors. Its vocabulary is theirs plus one unknown-word
// id, the last one; the file names the vocabulary by this hash.

// fnv1a32 of the vectors' words, each followed by a newline (as the corpus files hash it).
std::uint32_t vocabulary_hash(const Embeddings& embeddings);

// -> (count + 1, d): E for a LanguageModel, row i the dequantised vector of word i, the last row
// (the unknown-word id) embeddings.fallback("<unk>"), which no token of the page's tokenizer is.
MatrixT<float> language_model_word_vectors(const Embeddings& embeddings);

// tokens: n words -> n ids: each word's row, or count (the unknown-word id) for a word the
// vocabulary does not hold.
std::vector<int> language_model_ids(const Embeddings& embeddings,
                                    const std::vector<std::string>& tokens);

}  // namespace attn

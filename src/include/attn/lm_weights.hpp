// The trained language model's weights as the page ships them: a strict binary format, written
// and read from bytes in memory (the core does no file I/O). docs/language-model.md gives the
// layout. Every parameter is stored as IEEE 754 half precision (float16), in the order of
// LanguageModel::parameters(), so the model the page runs is exactly the dequantised one the
// training tool measured.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "attn/embeddings.hpp"
#include "attn/language_model.hpp"

namespace attn {

// Header: magic, then ten little-endian uint32s: version, vocab, d_embed, d_model, layers, heads,
// d_mlp, context, the FNV-1a hash of the vocabulary the rows of E follow, the parameter count.
inline constexpr std::string_view kLanguageModelMagic = "ATTNLMWT";
inline constexpr std::uint32_t kLanguageModelVersion = 1;
inline constexpr std::size_t kLanguageModelHeaderBytes = 48;

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
};

// float -> the nearest float16 (ties to even), as its 16 bits. Throws InvalidArgument on NaN,
// infinity or |x| >= 65520 (which would round to infinity).
std::uint16_t float_to_half(float x);
// float16 bits -> float, exactly. Infinity and NaN codes come back as such.
float half_to_float(std::uint16_t bits);

// model's parameters -> the bytes of the file. vocab_hash: fnv1a32 of the vocabulary's bytes as
// the word-vector file stores them (docs/corpus.md), so a reader can check it has the right E.
// Throws InvalidArgument when a value cannot be stored (see float_to_half).
std::vector<std::uint8_t> encode_language_model(LanguageModel<float>& model,
                                                std::uint32_t vocab_hash);

// bytes: a whole file. Throws InvalidArgument, saying what is wrong, on a wrong magic or
// version, a config out of range, a parameter count that does not match the config, a file cut
// short or running on, or a stored infinity or NaN.
LanguageModelWeights parse_language_model_weights(const std::uint8_t* bytes, std::size_t size);

// Copies the weights into model. Throws InvalidArgument when its config (seed aside) differs.
void load_language_model_weights(LanguageModel<float>& model, const LanguageModelWeights& weights);

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

// What the translation bindings share: the checks on the learner's English tokens, and the object
// a translation becomes in JavaScript. Both translators' bindings (translator.cpp,
// transformer_translator.cpp) read their input and write their result through these, so that the
// recurrent models and the Transformer answer the facade in one shape.
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attn/embeddings.hpp"
#include "attn/translation_text.hpp"
#include "attn/translator.hpp"

namespace attn::bindings {

using emscripten::val;

// The word vectors loaded now (loadEmbeddings), which a translation file is loaded against.
// Throws InvalidArgument naming `where` when none are.
std::shared_ptr<const Embeddings> embeddings_for_load(const char* where);

// Throws InvalidArgument naming `where` and `models` ("the models", "the Transformer") unless a
// file's English vocabulary hash and sizes are those of `embeddings`.
void require_trained_on(const Embeddings& embeddings, std::uint32_t english_hash, int source_words,
                        int source_width, const char* where, const char* models);

// The learner's English for a model: its tokens and their rows of the word vectors.
struct TranslationInput {
  std::vector<std::string> tokens;  // (n) as the facade tokenized them
  std::vector<int> ids;             // (n) rows of the word vectors; their count for an unknown word
};

// tokens: n strings, 1 <= n <= kMaxTranslationLength; max_words: 0 to kMaxTranslationLength - 1.
// Throws InvalidArgument naming `where` otherwise.
TranslationInput translation_input(const val& tokens, int max_words, const Embeddings& embeddings,
                                   const char* where);

// translation: what a model wrote for input -> { ids: Int32Array(n), known: Uint8Array(n),
//   pieces: m German strings ("<unk>" for the unknown id), weights: Float32Array((m + 1) * n) the
//   rows the model attends with (empty for the fixed-vector model), scores: Float32Array, the
//   additive scores before the softmax (empty where the model has none), words: W German words as
//   one reads them (readable_translation), firstPiece: Int32Array(W + 1), copied: Int32Array(W),
//   wordWeights: Float32Array((W + 1) * n) each word's row the mean of its pieces' (word_rows),
//   logProbability }. readable: readable_translation of it.
val translation_result(const Translation& translation, const ReadableTranslation& readable,
                       const GermanVocabulary& german, const TranslationInput& input,
                       const Embeddings& embeddings);

}  // namespace attn::bindings

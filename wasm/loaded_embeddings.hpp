// The word vectors the page loaded into the core (loadEmbeddings), shared by the bindings that
// read them: embed, and the language model, whose vocabulary they are.
#pragma once

#include <optional>

#include "attn/embeddings.hpp"

namespace attn::bindings {

// The vectors of the last successful loadEmbeddings; empty until then.
std::optional<Embeddings>& loaded_embeddings();

}  // namespace attn::bindings

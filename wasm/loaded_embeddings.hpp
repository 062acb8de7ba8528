// The word vectors the page loaded into the core (loadEmbeddings), shared by the bindings that
// read them: embed, and the language model, whose vocabulary they are.
#pragma once

#include <memory>

#include "attn/embeddings.hpp"

namespace attn::bindings {

// The vectors of the last successful loadEmbeddings; empty until then. Shared, so that a model
// loaded against them keeps them without a copy when other vectors are loaded later.
std::shared_ptr<const Embeddings>& loaded_embeddings();

}  // namespace attn::bindings

// attn_train: the one command that trains and measures the project's models natively.
//
// Usage: attn_train MODEL [flags]
//   reversal        a reversal model of the training slide (reversal.cpp); the same numbers as
//                   the wasm engine's createTraining
//   language-model  the page's language model on the Brown Corpus (language_model.cpp;
//                   npm run train:lm)
//   translation     the page's two English-German translators (translation.cpp;
//                   npm run train:translation)
//   transformer     the encoder-decoder Transformer translator on the same corpus
//                   (transformer.cpp)
// Each model's flags are at the top of its file; a bad flag exits with code 2, the message and a
// usage line (command_line.hpp). Every model trains through the core's training loop
// (attn/training_loop.hpp) and prints JSON lines of progress.
#include <cstdio>
#include <cstring>

#include "models.hpp"

int main(int argc, char** argv) {
  struct Model {
    const char* name;
    int (*train)(int, char**);
  };
  const Model models[] = {{"reversal", attn::tools::train_reversal},
                          {"language-model", attn::tools::train_language_model},
                          {"translation", attn::tools::train_translation},
                          {"transformer", attn::tools::train_transformer}};
  if (argc >= 2) {
    for (const Model& model : models) {
      if (std::strcmp(argv[1], model.name) == 0) return model.train(argc - 1, argv + 1);
    }
  }
  if (argc >= 2) {
    std::fprintf(stderr, "attn_train: unknown model '%s'\n", argv[1]);
  } else {
    std::fprintf(stderr, "attn_train: name the model to train\n");
  }
  std::fprintf(stderr,
               "usage: attn_train reversal|language-model|translation|transformer [flags]\n");
  return 2;
}

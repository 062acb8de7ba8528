#include "attn/lm_weights.hpp"

#include <string>
#include <utility>

#include "checks.hpp"

namespace attn {

namespace {

constexpr const char* kWhere = "language model weights";

// The sizes the file names, in the order it holds them, with their ranges.
constexpr ConfigSize<LanguageModelConfig> kSizes[] = {
    {"vocab", &LanguageModelConfig::vocab, 2, 1u << 20},
    {"d_embed", &LanguageModelConfig::d_embed, 1, 4096},
    {"d_model", &LanguageModelConfig::d_model, 1, 4096},
    {"layers", &LanguageModelConfig::layers, 1, 64},
    {"heads", &LanguageModelConfig::heads, 1, 4096},
    {"d_mlp", &LanguageModelConfig::d_mlp, 1, 16384},
    {"context", &LanguageModelConfig::context, 1, 4096},
};

}  // namespace

std::vector<std::pair<int, int>> language_model_parameter_shapes(const LanguageModelConfig& c) {
  const int d = c.d_model, m = c.d_mlp;
  std::vector<std::pair<int, int>> shapes{{c.d_embed, d}, {1, d}, {c.context, d}};
  for (int l = 0; l < c.layers; ++l) {
    shapes.insert(shapes.end(), {{1, d},
                                 {1, d},
                                 {d, d},
                                 {1, d},
                                 {d, d},
                                 {1, d},
                                 {d, d},
                                 {1, d},
                                 {d, d},
                                 {1, d},
                                 {1, d},
                                 {1, d},
                                 {d, m},
                                 {1, m},
                                 {m, d},
                                 {1, d}});
  }
  shapes.insert(shapes.end(), {{1, d}, {1, d}, {d, c.d_embed}, {1, c.vocab}});
  return shapes;
}

std::size_t language_model_parameter_count(const LanguageModelConfig& config) {
  std::size_t count = 0;
  for (const auto& [rows, cols] : language_model_parameter_shapes(config)) {
    count += static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  }
  return count;
}

std::vector<std::uint8_t> encode_language_model(LanguageModel<float>& model,
                                                std::uint32_t vocab_hash) {
  const LanguageModelConfig& c = model.config();
  WeightsFile file;
  file.kind = kLanguageModelKind;
  add_sizes(file, c, kSizes);
  file.numbers.emplace_back("vocab_hash", vocab_hash);
  add_parameters(file, "", model.parameters(), TensorEncoding::float16);
  return encode_weights_file(file, kWhere);
}

LanguageModelWeights parse_language_model_weights(const std::uint8_t* bytes, std::size_t size) {
  WeightsFile file = parse_weights_file(bytes, size, kLanguageModelKind, kWhere);
  LanguageModelWeights w;
  LanguageModelConfig& c = w.config;
  read_sizes(file, kWhere, kSizes, c);
  c.seed = 0;
  if (c.heads > c.d_model || c.d_model % c.heads != 0) {
    detail::fail(kWhere, "heads (" + std::to_string(c.heads) + ") must divide d_model (" +
                             std::to_string(c.d_model) + ")");
  }
  w.vocab_hash = file.number(kWhere, "vocab_hash");
  w.values = take_parameters(file, "", language_model_parameter_shapes(c), kWhere, &w.names);
  return w;
}

void load_language_model_weights(LanguageModel<float>& model, const LanguageModelWeights& weights) {
  if (!same_sizes(model.config(), weights.config, kSizes)) {
    detail::fail(kWhere, "the weights are for another config than the model's");
  }
  const std::vector<Parameter<float>*> params = model.parameters();
  if (params.size() != weights.values.size()) {
    detail::fail(kWhere, "the weights hold " + std::to_string(weights.values.size()) +
                             " parameters, the model " + std::to_string(params.size()));
  }
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (params[i]->value.rows() != weights.values[i].rows() ||
        params[i]->value.cols() != weights.values[i].cols()) {
      detail::fail(kWhere, "parameter " + params[i]->name + " has another shape");
    }
    params[i]->value = weights.values[i];
  }
  require_parameter_names(params, weights.names, kWhere);
}

LanguageModel<float> make_language_model(LanguageModelWeights&& weights,
                                         MatrixT<float> word_vectors) {
  LanguageModel<float> model = LanguageModel<float>::from_weights(
      weights.config, std::move(word_vectors), std::move(weights.values));
  require_parameter_names(model.parameters(), weights.names, kWhere);
  return model;
}

std::uint32_t vocabulary_hash(const Embeddings& embeddings) {
  // Word by word, a call each, rather than over one string of them all (built first, then
  // hashed in a single call that a WebAssembly engine would run in baseline code throughout).
  std::uint32_t hash = fnv1a32("");
  for (int i = 0; i < embeddings.size(); ++i) {
    hash = fnv1a32("\n", fnv1a32(embeddings.vocabulary().word(i), hash));
  }
  return hash;
}

MatrixT<float> language_model_word_vectors(const Embeddings& embeddings) {
  const int words = embeddings.size();
  MatrixT<float> e(words + 1, embeddings.dim());
  // Row by row straight from the codes, not word by word through the vocabulary's hash table,
  // and without a copy of all of them first.
  for (int i = 0; i < words; ++i) embeddings.dequantize_row(i, e.row(i).data());
  e.row(words) = embeddings.fallback("<unk>").transpose();
  return e;
}

std::vector<int> language_model_ids(const Embeddings& embeddings,
                                    const std::vector<std::string>& tokens) {
  std::vector<int> ids;
  ids.reserve(tokens.size());
  for (const std::string& token : tokens) {
    const int row = embeddings.vocabulary().index_of(token);
    ids.push_back(row >= 0 ? row : embeddings.size());
  }
  return ids;
}

}  // namespace attn

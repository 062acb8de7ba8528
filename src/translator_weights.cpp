#include "attn/translator_weights.hpp"

#include <cmath>
#include <cstring>
#include <utility>

#include "attn/embeddings.hpp"
#include "checks.hpp"

namespace attn {
namespace {

constexpr const char* kWhere = "translator weights";

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

std::uint32_t get_u32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

// The German words of `text`, each ended by a newline.
std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> words;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      words.emplace_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  if (start != text.size()) detail::fail(kWhere, "the vocabulary's last word has no newline");
  return words;
}

}  // namespace

std::vector<std::uint8_t> encode_translators(const std::vector<Translator<float>*>& models,
                                             const std::string& vocabulary,
                                             std::uint32_t english_hash) {
  if (models.empty() || models.size() > 2) {
    detail::fail(kWhere, "a file holds one or two models, got " + std::to_string(models.size()));
  }
  const TranslatorConfig& c = models[0]->config();
  for (Translator<float>* m : models) {
    const TranslatorConfig& o = m->config();
    if (o.source_words != c.source_words || o.source_width != c.source_width ||
        o.target_words != c.target_words || o.target_width != c.target_width ||
        o.encoder_state != c.encoder_state || o.decoder_state != c.decoder_state ||
        o.attention != c.attention) {
      detail::fail(kWhere, "the models of one file must have the same shape");
    }
  }
  if (models.size() == 2 && models[0]->config().bridge == models[1]->config().bridge) {
    detail::fail(kWhere, "the two models of a file must have different bridges");
  }
  const std::vector<std::string> words = split_lines(vocabulary);
  if (static_cast<int>(words.size()) != c.target_words) {
    detail::fail(kWhere, "the vocabulary has " + std::to_string(words.size()) +
                             " words but the models " + std::to_string(c.target_words));
  }
  Vocabulary check(words);  // distinct, non-empty words

  std::vector<std::uint8_t> out(kTranslatorMagic.begin(), kTranslatorMagic.end());
  for (const int v :
       {static_cast<int>(kTranslatorVersion), c.source_words, c.source_width, c.target_words,
        c.target_width, c.encoder_state, c.decoder_state, c.attention}) {
    put_u32(out, static_cast<std::uint32_t>(v));
  }
  put_u32(out, english_hash);
  put_u32(out, static_cast<std::uint32_t>(models.size()));
  put_u32(out, static_cast<std::uint32_t>(vocabulary.size()));
  out.insert(out.end(), vocabulary.begin(), vocabulary.end());
  for (Translator<float>* m : models) {
    put_u32(out, m->config().bridge == Bridge::attention ? 1 : 0);
    for (const Parameter<float>* p : m->parameters()) {
      detail::require_finite(kWhere, p->name.c_str(), p->value);
      // Each row: scale = max |x| / 127 as float32, then round(x / scale) as signed bytes.
      for (Eigen::Index r = 0; r < p->value.rows(); ++r) {
        const float top = p->value.row(r).cwiseAbs().maxCoeff();
        const float scale = top / 127.0f;
        std::uint32_t bits;
        std::memcpy(&bits, &scale, sizeof bits);
        put_u32(out, bits);
        for (Eigen::Index k = 0; k < p->value.cols(); ++k) {
          const float code = scale > 0 ? std::nearbyint(p->value(r, k) / scale) : 0.0f;
          out.push_back(static_cast<std::uint8_t>(
              static_cast<std::int8_t>(std::max(-127.0f, std::min(127.0f, code)))));
        }
      }
    }
  }
  return out;
}

TranslatorWeights parse_translators(const std::uint8_t* bytes, std::size_t size) {
  if (!bytes || size < kTranslatorHeaderBytes) detail::fail(kWhere, "the file is truncated");
  if (std::string_view(reinterpret_cast<const char*>(bytes), 8) != kTranslatorMagic) {
    detail::fail(kWhere, "the magic is not ATTNMTWT");
  }
  std::uint32_t h[11];
  for (int i = 0; i < 11; ++i) h[i] = get_u32(bytes + 8 + 4 * i);
  if (h[0] != kTranslatorVersion) {
    detail::fail(kWhere, "format version " + std::to_string(h[0]) + ", expected " +
                             std::to_string(kTranslatorVersion));
  }
  TranslatorWeights w;
  for (int i = 1; i <= 7; ++i) {
    if (h[i] > (1u << 24)) detail::fail(kWhere, "a size in the header is out of range");
  }
  TranslatorConfig& c = w.config;
  c.source_words = static_cast<int>(h[1]);
  c.source_width = static_cast<int>(h[2]);
  c.target_words = static_cast<int>(h[3]);
  c.target_width = static_cast<int>(h[4]);
  c.encoder_state = static_cast<int>(h[5]);
  c.decoder_state = static_cast<int>(h[6]);
  c.attention = static_cast<int>(h[7]);
  check_translator_config(c);
  w.english_hash = h[8];
  const std::uint32_t n_models = h[9], vocabulary_bytes = h[10];
  if (n_models < 1 || n_models > 2) {
    detail::fail(kWhere, "the file holds " + std::to_string(n_models) + " models; 1 or 2 expected");
  }
  std::size_t at = kTranslatorHeaderBytes;
  if (vocabulary_bytes > size - at) detail::fail(kWhere, "the file is truncated in the vocabulary");
  w.german_words =
      split_lines(std::string_view(reinterpret_cast<const char*>(bytes + at), vocabulary_bytes));
  at += vocabulary_bytes;
  if (static_cast<int>(w.german_words.size()) != c.target_words) {
    detail::fail(kWhere, "the vocabulary has " + std::to_string(w.german_words.size()) +
                             " words but the header says " + std::to_string(c.target_words));
  }
  Vocabulary check(w.german_words);

  for (std::uint32_t m = 0; m < n_models; ++m) {
    if (size - at < 4) detail::fail(kWhere, "the file is truncated");
    const std::uint32_t bridge = get_u32(bytes + at);
    at += 4;
    if (bridge > 1) detail::fail(kWhere, "model " + std::to_string(m) + " has an unknown bridge");
    TranslatorWeights::Model model;
    model.bridge = bridge == 1 ? Bridge::attention : Bridge::fixed_vector;
    if (m == 1 && model.bridge == w.models[0].bridge) {
      detail::fail(kWhere, "both models have the same bridge");
    }
    TranslatorConfig with_bridge = c;
    with_bridge.bridge = model.bridge;
    const std::vector<std::pair<int, int>> shapes = translator_parameter_shapes(with_bridge);
    // The whole model must fit in what is left of the file before anything is allocated.
    std::size_t model_bytes = 0;
    for (const auto& [rows, cols] : shapes) {
      model_bytes += static_cast<std::size_t>(rows) * (4 + static_cast<std::size_t>(cols));
      if (model_bytes > size - at) {
        detail::fail(kWhere, "the file is truncated in model " + std::to_string(m));
      }
    }
    for (const auto& [rows, cols] : shapes) {
      MatrixT<float> value(rows, cols);
      for (Eigen::Index r = 0; r < rows; ++r) {
        if (size - at < 4 + static_cast<std::size_t>(cols)) {
          detail::fail(kWhere, "the file is truncated in model " + std::to_string(m));
        }
        const std::uint32_t bits = get_u32(bytes + at);
        float scale;
        std::memcpy(&scale, &bits, sizeof scale);
        at += 4;
        if (!(scale >= 0.0f) || !std::isfinite(scale)) {
          detail::fail(
              kWhere, "model " + std::to_string(m) + " has a scale that is negative or not finite");
        }
        for (Eigen::Index k = 0; k < cols; ++k) {
          value(r, k) = scale * static_cast<float>(static_cast<std::int8_t>(bytes[at++]));
        }
      }
      model.values.push_back(std::move(value));
    }
    w.models.push_back(std::move(model));
  }
  if (at != size) detail::fail(kWhere, "the file has extra bytes");
  return w;
}

Translator<float> make_translator(const TranslatorWeights& weights, Bridge bridge,
                                  std::shared_ptr<const MatrixT<float>> word_vectors) {
  for (const TranslatorWeights::Model& m : weights.models) {
    if (m.bridge != bridge) continue;
    TranslatorConfig config = weights.config;
    config.bridge = bridge;
    return Translator<float>::from_weights(config, std::move(word_vectors), m.values);
  }
  detail::fail(kWhere, std::string("the file has no ") + bridge_name(bridge) + " model");
}

Translator<float> make_translator(const TranslatorWeights& weights, Bridge bridge,
                                  MatrixT<float> word_vectors) {
  return make_translator(weights, bridge,
                         std::make_shared<const MatrixT<float>>(std::move(word_vectors)));
}

}  // namespace attn

#include "attn/lm_weights.hpp"

#include <cmath>
#include <cstring>
#include <string>

#include "checks.hpp"

namespace attn {

namespace {

constexpr const char* kWhere = "language model weights";

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int b = 0; b < 4; ++b) out.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
}

std::uint32_t get_u32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

void check_field(const char* name, std::uint32_t value, std::uint32_t low, std::uint32_t high) {
  if (value < low || value > high) {
    detail::fail(kWhere, std::string(name) + " is " + std::to_string(value) + "; it must be from " +
                             std::to_string(low) + " to " + std::to_string(high));
  }
}

// bytes: (n) little-endian float16 codes -> out: (n) their floats. False when one of them is an
// infinity or NaN. A call of its own per row of a parameter, never inlined into the loop over
// the rows, so that a WebAssembly engine runs all but the first few rows of the 450,000 values
// in optimised code (see Embeddings::row_norm).
[[gnu::noinline]] bool decode_half_row(const std::uint8_t* bytes, Eigen::Index n, float* out) {
  bool finite = true;
  for (Eigen::Index k = 0; k < n; ++k, bytes += 2) {
    const auto h = static_cast<std::uint16_t>(bytes[0] | (bytes[1] << 8));
    finite = finite && (h & 0x7c00u) != 0x7c00u;
    out[k] = half_to_float(h);
  }
  return finite;
}

// decode_half_row is called through this pointer, not directly: the WebAssembly build's
// link-time optimiser ignores noinline and inlines every function that has a single caller,
// which would put the loop over the values back into one long call.
bool (*volatile const decode_half_row_call)(const std::uint8_t*, Eigen::Index,
                                            float*) = decode_half_row;

bool same_shape(const LanguageModelConfig& a, const LanguageModelConfig& b) {
  return a.vocab == b.vocab && a.d_embed == b.d_embed && a.d_model == b.d_model &&
         a.layers == b.layers && a.heads == b.heads && a.d_mlp == b.d_mlp && a.context == b.context;
}

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

std::uint16_t float_to_half(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, 4);
  const std::uint32_t sign = (bits >> 16) & 0x8000u;
  const std::uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude >= 0x7f800000u) detail::fail(kWhere, "a value is NaN or infinite");
  if (magnitude >= 0x477ff000u) {  // 65520: rounds to infinity in float16
    detail::fail(kWhere, "a value (" + std::to_string(x) + ") is beyond float16's range");
  }
  if (magnitude < 0x38800000u) {  // below 2^-14: a float16 subnormal (or 0), in units of 2^-24
    float a;
    std::memcpy(&a, &magnitude, 4);
    return static_cast<std::uint16_t>(sign |
                                      static_cast<std::uint32_t>(std::nearbyint(a * 16777216.0f)));
  }
  std::uint32_t half = (((magnitude >> 23) - 112u) << 10) | ((magnitude >> 13) & 0x3ffu);
  const std::uint32_t rest = magnitude & 0x1fffu;                  // the 13 bits float16 drops
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;  // a carry bumps the exponent
  return static_cast<std::uint16_t>(sign | half);
}

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  if (exponent == 0) {
    const float value = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -value : value;
  }
  const std::uint32_t bits = exponent == 31 ? (sign | 0x7f800000u | (mantissa << 13))
                                            : (sign | ((exponent + 112u) << 23) | (mantissa << 13));
  float out;
  std::memcpy(&out, &bits, 4);
  return out;
}

std::vector<std::uint8_t> encode_language_model(LanguageModel<float>& model,
                                                std::uint32_t vocab_hash) {
  const LanguageModelConfig& c = model.config();
  std::vector<std::uint8_t> out(kLanguageModelMagic.begin(), kLanguageModelMagic.end());
  put_u32(out, kLanguageModelVersion);
  for (int field : {c.vocab, c.d_embed, c.d_model, c.layers, c.heads, c.d_mlp, c.context}) {
    put_u32(out, static_cast<std::uint32_t>(field));
  }
  put_u32(out, vocab_hash);
  put_u32(out, static_cast<std::uint32_t>(language_model_parameter_count(c)));
  out.reserve(out.size() + 2 * language_model_parameter_count(c));
  for (const Parameter<float>* p : model.parameters()) {
    for (Eigen::Index i = 0; i < p->value.size(); ++i) {
      const std::uint16_t h = float_to_half(p->value.data()[i]);
      out.push_back(static_cast<std::uint8_t>(h & 0xff));
      out.push_back(static_cast<std::uint8_t>(h >> 8));
    }
  }
  return out;
}

LanguageModelWeights parse_language_model_weights(const std::uint8_t* bytes, std::size_t size) {
  if (bytes == nullptr && size > 0) detail::fail(kWhere, "no bytes");
  if (size < kLanguageModelMagic.size() ||
      std::memcmp(bytes, kLanguageModelMagic.data(), kLanguageModelMagic.size()) != 0) {
    detail::fail(kWhere, "not a language model file (its first 8 bytes are not \"ATTNLMWT\")");
  }
  if (size < kLanguageModelHeaderBytes) {
    detail::fail(kWhere, "truncated: " + std::to_string(size) + " bytes, shorter than the " +
                             std::to_string(kLanguageModelHeaderBytes) + "-byte header");
  }
  const std::uint32_t version = get_u32(bytes + 8);
  if (version != kLanguageModelVersion) {
    detail::fail(kWhere, "version " + std::to_string(version) + " is not supported (only " +
                             std::to_string(kLanguageModelVersion) + ")");
  }
  const char* names[] = {"vocab", "d_embed", "d_model", "layers", "heads", "d_mlp", "context"};
  const std::uint32_t highs[] = {1u << 20, 4096, 4096, 64, 4096, 16384, 4096};
  const std::uint32_t lows[] = {2, 1, 1, 1, 1, 1, 1};
  std::uint32_t fields[7];
  for (int i = 0; i < 7; ++i) {
    fields[i] = get_u32(bytes + 12 + 4 * i);
    check_field(names[i], fields[i], lows[i], highs[i]);
  }
  LanguageModelWeights w;
  LanguageModelConfig& c = w.config;
  c.vocab = static_cast<int>(fields[0]);
  c.d_embed = static_cast<int>(fields[1]);
  c.d_model = static_cast<int>(fields[2]);
  c.layers = static_cast<int>(fields[3]);
  c.heads = static_cast<int>(fields[4]);
  c.d_mlp = static_cast<int>(fields[5]);
  c.context = static_cast<int>(fields[6]);
  c.seed = 0;
  if (c.heads > c.d_model || c.d_model % c.heads != 0) {
    detail::fail(kWhere, "heads (" + std::to_string(c.heads) + ") must divide d_model (" +
                             std::to_string(c.d_model) + ")");
  }
  w.vocab_hash = get_u32(bytes + 40);
  const std::size_t count = language_model_parameter_count(c);
  const std::uint32_t stored = get_u32(bytes + 44);
  if (stored != count) {
    detail::fail(kWhere, "the header counts " + std::to_string(stored) +
                             " parameter values but its config has " + std::to_string(count));
  }
  const std::size_t expected = kLanguageModelHeaderBytes + 2 * count;
  if (size < expected) {
    detail::fail(kWhere, "truncated: " + std::to_string(size) + " bytes, the config needs " +
                             std::to_string(expected));
  }
  if (size > expected) {
    detail::fail(kWhere, "has extra bytes: " + std::to_string(size) + " bytes, the config needs " +
                             std::to_string(expected));
  }
  const std::uint8_t* p = bytes + kLanguageModelHeaderBytes;
  const std::vector<std::pair<int, int>> shapes = language_model_parameter_shapes(c);
  w.values.reserve(shapes.size());
  for (const auto& [rows, cols] : shapes) {
    MatrixT<float> m(rows, cols);  // row-major, as the file stores it
    for (Eigen::Index r = 0; r < rows; ++r, p += 2 * cols) {
      if (!decode_half_row_call(p, cols, m.row(r).data())) {
        detail::fail(kWhere,
                     "parameter " + std::to_string(w.values.size()) + " holds an infinity or NaN");
      }
    }
    w.values.push_back(std::move(m));
  }
  return w;
}

void load_language_model_weights(LanguageModel<float>& model, const LanguageModelWeights& weights) {
  if (!same_shape(model.config(), weights.config)) {
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

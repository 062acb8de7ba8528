#include "attn/weights_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "checks.hpp"
#include "little_endian.hpp"

namespace attn {
namespace {

constexpr std::size_t kMaxName = 128;
// Bounds that keep every size computation far from overflow: a side of at most 2^24, a tensor of
// at most 2^28 values (1 GiB of float32), at most 2^16 entries in a section.
constexpr std::uint32_t kMaxSide = 1u << 24;
constexpr std::uint64_t kMaxValues = 1ull << 28;
constexpr std::uint32_t kMaxEntries = 1u << 16;

bool valid_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxName) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-' || c == '/';
  });
}

// Bytes per row of a tensor of `cols` values in `encoding`.
std::uint64_t row_bytes(TensorEncoding encoding, std::uint64_t cols) {
  switch (encoding) {
    case TensorEncoding::float32:
      return 4 * cols;
    case TensorEncoding::float16:
      return 2 * cols;
    case TensorEncoding::int8_rows:
      return 4 + cols;
  }
  return 0;
}

// bytes: (n) little-endian float16 codes -> out: (n) their floats. False when one of them is an
// infinity or NaN. A call of its own per row, never inlined into the loop over the rows, so that
// a WebAssembly engine runs all but the first few rows of a large tensor in optimised code (see
// Embeddings::row_norm).
[[gnu::noinline]] bool decode_half_row(const std::uint8_t* bytes, Eigen::Index n, float* out) {
  bool finite = true;
  for (Eigen::Index k = 0; k < n; ++k, bytes += 2) {
    const auto h = static_cast<std::uint16_t>(bytes[0] | (bytes[1] << 8));
    finite = finite && (h & 0x7c00u) != 0x7c00u;
    out[k] = half_to_float(h);
  }
  return finite;
}

// bytes: (n) int8 codes -> out: (n) scale * code.
[[gnu::noinline]] void decode_int8_row(const std::uint8_t* bytes, Eigen::Index n, float scale,
                                       float* out) {
  for (Eigen::Index k = 0; k < n; ++k) {
    out[k] = scale * static_cast<float>(static_cast<std::int8_t>(bytes[k]));
  }
}

// The row decoders are called through these pointers, not directly: the WebAssembly build's
// link-time optimiser ignores noinline and inlines every function that has a single caller,
// which would put the loop over the values back into one long call.
bool (*volatile const decode_half_row_call)(const std::uint8_t*, Eigen::Index,
                                            float*) = decode_half_row;
void (*volatile const decode_int8_row_call)(const std::uint8_t*, Eigen::Index, float,
                                            float*) = decode_int8_row;

void put_name(std::vector<std::uint8_t>& out, std::string_view name) {
  detail::put_u32(out, static_cast<std::uint32_t>(name.size()));
  out.insert(out.end(), name.begin(), name.end());
}

// Reads what a file holds, front to back, each read checked against the bytes left.
class Reader {
 public:
  Reader(const std::uint8_t* bytes, std::size_t size, const char* where)
      : bytes_(bytes), size_(size), where_(where) {}

  std::size_t left() const { return size_ - at_; }
  const std::uint8_t* take(std::size_t n, const std::string& what) {
    if (n > left()) detail::fail(where_, "the file is truncated in " + what);
    const std::uint8_t* p = bytes_ + at_;
    at_ += n;
    return p;
  }
  std::uint32_t u32(const std::string& what) { return detail::read_u32(take(4, what)); }
  std::string text(const std::string& what) {
    const std::uint32_t n = u32(what);
    return std::string(reinterpret_cast<const char*>(take(n, what)), n);
  }
  std::string name(const std::string& what) {
    std::string name = text(what);
    if (!valid_name(name)) detail::fail(where_, what + " has an invalid name");
    return name;
  }
  std::uint32_t count(const std::string& what) {
    const std::uint32_t n = u32("the number of " + what);
    if (n > kMaxEntries) {
      detail::fail(where_, "the file says it holds " + std::to_string(n) + " " + what +
                               "; at most " + std::to_string(kMaxEntries));
    }
    return n;
  }

 private:
  const std::uint8_t* bytes_;
  std::size_t size_;
  std::size_t at_ = 0;
  const char* where_;
};

template <typename Entries>
void require_new_name(const Entries& entries, const std::string& name, const char* where,
                      const char* what) {
  for (const auto& entry : entries) {
    if (entry.first == name) detail::fail(where, std::string(what) + " " + name + " appears twice");
  }
}

}  // namespace

std::uint32_t WeightsFile::number(const char* where, std::string_view name, std::uint32_t low,
                                  std::uint32_t high) const {
  for (const auto& [key, value] : numbers) {
    if (key != name) continue;
    if (value < low || value > high) {
      detail::fail(where, std::string(name) + " is " + std::to_string(value) +
                              "; it must be from " + std::to_string(low) + " to " +
                              std::to_string(high));
    }
    return value;
  }
  detail::fail(where, "the file has no number " + std::string(name));
}

const std::string& WeightsFile::text(const char* where, std::string_view name) const {
  for (const auto& [key, value] : texts) {
    if (key == name) return value;
  }
  detail::fail(where, "the file has no text " + std::string(name));
}

std::vector<std::uint8_t> encode_weights_file(const WeightsFile& file, const char* where) {
  if (!valid_name(file.kind)) detail::fail(where, "the kind \"" + file.kind + "\" is not a name");
  std::vector<std::uint8_t> out(kWeightsMagic.begin(), kWeightsMagic.end());
  detail::put_u32(out, kWeightsVersion);
  put_name(out, file.kind);

  // 1. The numbers, then the texts, each name once.
  auto check_names = [&](const auto& entries, const char* what) {
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const std::string& name = entries[i].first;
      if (!valid_name(name))
        detail::fail(where, std::string(what) + " \"" + name + "\" is no name");
      for (std::size_t j = 0; j < i; ++j) {
        if (entries[j].first == name) {
          detail::fail(where, std::string(what) + " " + name + " appears twice");
        }
      }
    }
  };
  check_names(file.numbers, "the number");
  check_names(file.texts, "the text");
  detail::put_u32(out, static_cast<std::uint32_t>(file.numbers.size()));
  for (const auto& [name, value] : file.numbers) {
    put_name(out, name);
    detail::put_u32(out, value);
  }
  detail::put_u32(out, static_cast<std::uint32_t>(file.texts.size()));
  for (const auto& [name, value] : file.texts) {
    put_name(out, name);
    put_name(out, value);
  }

  // 2. The tensors: name, encoding, rows, cols, then the values row by row.
  detail::put_u32(out, static_cast<std::uint32_t>(file.tensors.size()));
  for (std::size_t i = 0; i < file.tensors.size(); ++i) {
    const WeightsTensor& t = file.tensors[i];
    if (!valid_name(t.name)) detail::fail(where, "the tensor \"" + t.name + "\" is no name");
    for (std::size_t j = 0; j < i; ++j) {
      if (file.tensors[j].name == t.name) {
        detail::fail(where, "the tensor " + t.name + " appears twice");
      }
    }
    const MatrixT<float>& v = t.value;
    const Eigen::Index max_side = kMaxSide;
    if (v.rows() < 1 || v.cols() < 1 || v.rows() > max_side || v.cols() > max_side ||
        static_cast<std::uint64_t>(v.size()) > kMaxValues) {
      detail::fail(where, "the tensor " + t.name + " is " + shape_of(v.rows(), v.cols()) +
                              "; each side must be from 1 to 2^24");
    }
    detail::require_finite(where, t.name.c_str(), v);
    put_name(out, t.name);
    detail::put_u32(out, static_cast<std::uint32_t>(t.encoding));
    detail::put_u32(out, static_cast<std::uint32_t>(v.rows()));
    detail::put_u32(out, static_cast<std::uint32_t>(v.cols()));
    out.reserve(out.size() + row_bytes(t.encoding, v.cols()) * v.rows());
    for (Eigen::Index r = 0; r < v.rows(); ++r) {
      switch (t.encoding) {
        case TensorEncoding::float32:
          for (Eigen::Index k = 0; k < v.cols(); ++k) detail::put_f32(out, v(r, k));
          break;
        case TensorEncoding::float16:
          if (v.row(r).cwiseAbs().maxCoeff() >= 65520.0f) {  // rounds to infinity in float16
            detail::fail(where, "the tensor " + t.name + " holds a value beyond float16's range");
          }
          for (Eigen::Index k = 0; k < v.cols(); ++k) {
            const std::uint16_t h = float_to_half(v(r, k));
            out.push_back(static_cast<std::uint8_t>(h & 0xff));
            out.push_back(static_cast<std::uint8_t>(h >> 8));
          }
          break;
        case TensorEncoding::int8_rows: {
          // scale = max |x| / 127, then round(x / scale), clamped to [-127, 127].
          const float scale = v.row(r).cwiseAbs().maxCoeff() / 127.0f;
          detail::put_f32(out, scale);
          for (Eigen::Index k = 0; k < v.cols(); ++k) {
            const float code = scale > 0 ? std::nearbyint(v(r, k) / scale) : 0.0f;
            out.push_back(static_cast<std::uint8_t>(
                static_cast<std::int8_t>(std::max(-127.0f, std::min(127.0f, code)))));
          }
          break;
        }
        default:
          detail::fail(where, "the tensor " + t.name + " has an unknown encoding");
      }
    }
  }
  return out;
}

WeightsFile parse_weights_file(const std::uint8_t* bytes, std::size_t size, std::string_view kind,
                               const char* where) {
  if (bytes == nullptr) size = 0;
  if (size < kWeightsMagic.size() + 4) detail::fail(where, "the file is truncated");
  if (std::memcmp(bytes, kWeightsMagic.data(), kWeightsMagic.size()) != 0) {
    detail::fail(where, "not a weights file (its first 8 bytes are not \"ATTNWTFL\")");
  }
  Reader in(bytes, size, where);
  in.take(kWeightsMagic.size(), "the magic");
  const std::uint32_t version = in.u32("the version");
  if (version != kWeightsVersion) {
    detail::fail(where, "format version " + std::to_string(version) + ", expected " +
                            std::to_string(kWeightsVersion));
  }
  WeightsFile file;
  file.kind = in.name("the kind");
  if (file.kind != kind) {
    detail::fail(where, "the file holds " + file.kind + ", not " + std::string(kind));
  }

  // 1. The numbers and the texts.
  const std::uint32_t numbers = in.count("numbers");
  for (std::uint32_t i = 0; i < numbers; ++i) {
    std::string name = in.name("number " + std::to_string(i));
    require_new_name(file.numbers, name, where, "the number");
    const std::uint32_t value = in.u32("the number " + name);
    file.numbers.emplace_back(std::move(name), value);
  }
  const std::uint32_t texts = in.count("texts");
  for (std::uint32_t i = 0; i < texts; ++i) {
    std::string name = in.name("text " + std::to_string(i));
    require_new_name(file.texts, name, where, "the text");
    std::string value = in.text("the text " + name);
    file.texts.emplace_back(std::move(name), std::move(value));
  }

  // 2. The tensors, each checked to fit in what is left of the file before it is allocated.
  const std::uint32_t tensors = in.count("tensors");
  for (std::uint32_t i = 0; i < tensors; ++i) {
    WeightsTensor t;
    t.name = in.name("tensor " + std::to_string(i));
    for (const WeightsTensor& before : file.tensors) {
      if (before.name == t.name) detail::fail(where, "the tensor " + t.name + " appears twice");
    }
    const std::string what = "the tensor " + t.name;
    const std::uint32_t encoding = in.u32(what);
    if (encoding > static_cast<std::uint32_t>(TensorEncoding::int8_rows)) {
      detail::fail(where, what + " has an unknown encoding " + std::to_string(encoding));
    }
    t.encoding = static_cast<TensorEncoding>(encoding);
    const std::uint32_t rows = in.u32(what), cols = in.u32(what);
    if (rows < 1 || cols < 1 || rows > kMaxSide || cols > kMaxSide ||
        static_cast<std::uint64_t>(rows) * cols > kMaxValues) {
      detail::fail(where,
                   what + " is " + shape_of(rows, cols) + "; each side must be from 1 to 2^24");
    }
    const std::uint64_t per_row = row_bytes(t.encoding, cols);
    if (per_row * rows > in.left()) detail::fail(where, "the file is truncated in " + what);
    t.value.resize(rows, cols);
    for (std::uint32_t r = 0; r < rows; ++r) {
      const std::uint8_t* p = in.take(per_row, what);
      float* out = t.value.row(r).data();
      bool finite = true;
      switch (t.encoding) {
        case TensorEncoding::float32:
          for (std::uint32_t k = 0; k < cols; ++k) out[k] = detail::read_f32(p + 4 * k);
          finite = t.value.row(r).allFinite();
          break;
        case TensorEncoding::float16:
          finite = decode_half_row_call(p, cols, out);
          break;
        case TensorEncoding::int8_rows: {
          const float scale = detail::read_f32(p);
          if (!(scale >= 0.0f) || !std::isfinite(scale)) {
            detail::fail(where, what + " has a scale that is negative or not finite");
          }
          decode_int8_row_call(p + 4, cols, scale, out);
          break;
        }
      }
      if (!finite) detail::fail(where, what + " holds an infinity or NaN");
    }
    file.tensors.push_back(std::move(t));
  }
  if (in.left() != 0) {
    detail::fail(where, "the file has " + std::to_string(in.left()) + " extra bytes");
  }
  return file;
}

void add_parameters(WeightsFile& file, std::string_view prefix,
                    const std::vector<Parameter<float>*>& parameters, TensorEncoding encoding) {
  for (const Parameter<float>* p : parameters) {
    file.tensors.push_back({std::string(prefix) + p->name, encoding, p->value});
  }
}

std::vector<MatrixT<float>> take_parameters(WeightsFile& file, std::string_view prefix,
                                            const std::vector<std::pair<int, int>>& shapes,
                                            const char* where, std::vector<std::string>* names) {
  std::vector<MatrixT<float>> values;
  std::vector<WeightsTensor> rest;
  for (WeightsTensor& t : file.tensors) {
    if (t.name.compare(0, prefix.size(), prefix) != 0) {
      rest.push_back(std::move(t));
      continue;
    }
    const std::size_t i = values.size();
    if (i >= shapes.size()) {
      detail::fail(where, "the file has more tensors under \"" + std::string(prefix) +
                              "\" than the model's " + std::to_string(shapes.size()));
    }
    if (t.value.rows() != shapes[i].first || t.value.cols() != shapes[i].second) {
      detail::fail(where, "the tensor " + t.name + " is " +
                              shape_of(t.value.rows(), t.value.cols()) + " but must be " +
                              shape_of(shapes[i].first, shapes[i].second));
    }
    if (names) names->push_back(t.name.substr(prefix.size()));
    values.push_back(std::move(t.value));
  }
  if (values.size() != shapes.size()) {
    detail::fail(where, "the file has " + std::to_string(values.size()) + " tensors under \"" +
                            std::string(prefix) + "\"; the model has " +
                            std::to_string(shapes.size()) + " parameters");
  }
  file.tensors = std::move(rest);
  return values;
}

void require_parameter_names(const std::vector<Parameter<float>*>& parameters,
                             const std::vector<std::string>& names, const char* where) {
  for (std::size_t i = 0; i < parameters.size() && i < names.size(); ++i) {
    if (parameters[i]->name != names[i]) {
      detail::fail(where, "the file's tensor " + std::to_string(i) + " is " + names[i] +
                              " where the model has " + parameters[i]->name);
    }
  }
}

void require_all_taken(const WeightsFile& file, const char* where) {
  if (!file.tensors.empty()) {
    detail::fail(where, "the file holds a tensor " + file.tensors.front().name +
                            " that no model of it reads");
  }
}

std::uint16_t float_to_half(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, 4);
  const std::uint32_t sign = (bits >> 16) & 0x8000u;
  const std::uint32_t magnitude = bits & 0x7fffffffu;
  constexpr const char* kWhere = "float16";
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

}  // namespace attn

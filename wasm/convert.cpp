#include "convert.hpp"

#include <climits>
#include <cmath>

namespace attn::bindings {
namespace {

using emscripten::typed_memory_view;

bool absent(const val& v) { return v.isUndefined() || v.isNull(); }

// Copies `array` (checked to hold `count` numbers) into `out`.
void copy_into(const val& array, float* out, size_t count, const char* where, const char* name,
               const std::string& expected) {
  if (absent(array)) {
    throw InvalidArgument(std::string(where) + ": " + name + " is missing; expected " + expected);
  }
  if (!array["length"].isNumber()) {
    throw InvalidArgument(std::string(where) + ": " + name + " must be an array of numbers");
  }
  const auto length = array["length"].as<size_t>();
  if (length != count) {
    throw InvalidArgument(std::string(where) + ": " + name + " has " + std::to_string(length) +
                          " values but must have " + expected);
  }
  // One typed-array set() copies the whole array (and converts plain number arrays).
  val(typed_memory_view(count, out)).call<void>("set", array);
}

}  // namespace

Matrix matrix_from(const val& array, int rows, int cols, const char* where, const char* name) {
  Matrix m(rows, cols);
  const auto count = static_cast<size_t>(rows) * static_cast<size_t>(cols);
  copy_into(array, m.data(), count, where, name,
            std::to_string(count) + " (" + shape_of(rows, cols) + ")");
  return m;
}

Vector vector_from(const val& array, int n, const char* where, const char* name, bool optional) {
  if (optional && absent(array)) return Vector();
  Vector v(n);
  copy_into(array, v.data(), static_cast<size_t>(n), where, name, std::to_string(n));
  return v;
}

KeyPadding padding_from(const val& flags, int n_k, const char* where) {
  if (absent(flags)) return {};
  if (!flags["length"].isNumber()) {
    throw InvalidArgument(std::string(where) +
                          ": keyPadding must be a Uint8Array or an array of booleans");
  }
  const auto length = flags["length"].as<size_t>();
  if (length != static_cast<size_t>(n_k)) {
    throw InvalidArgument(std::string(where) + ": keyPadding has " + std::to_string(length) +
                          " flags but there are " + std::to_string(n_k) + " keys");
  }
  KeyPadding padding(length);
  for (size_t j = 0; j < length; ++j) padding[j] = flags[j].as<bool>() ? 1 : 0;
  return padding;
}

std::vector<int> ints_from(const val& array, const char* where, const char* name) {
  const std::string at = std::string(where) + ": " + name;
  if (absent(array)) throw InvalidArgument(at + " is missing; expected an array of whole numbers");
  if (!array["length"].isNumber()) throw InvalidArgument(at + " must be an array of whole numbers");
  const auto length = array["length"].as<size_t>();
  std::vector<int> values(length);
  for (size_t i = 0; i < length; ++i) {
    const val item = array[i];
    // NaN fails the range test; a number outside int's range never reaches the cast.
    const double value = item.isNumber() ? item.as<double>() : NAN;
    if (!(value >= INT_MIN && value <= INT_MAX) || value != std::floor(value)) {
      throw InvalidArgument(at + "[" + std::to_string(i) + "] must be a whole number");
    }
    values[i] = static_cast<int>(value);
  }
  return values;
}

std::vector<std::string> strings_from(const val& tokens, const char* where) {
  if (!tokens.isArray()) {
    throw InvalidArgument(std::string(where) + ": tokens must be an array of strings");
  }
  const auto n = tokens["length"].as<size_t>();
  std::vector<std::string> words;
  words.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const val token = tokens[i];
    if (!token.isString()) {
      throw InvalidArgument(std::string(where) + ": token " + std::to_string(i) +
                            " is not a string");
    }
    words.push_back(token.as<std::string>());
  }
  return words;
}

ByteCopy bytes_from(const val& bytes, const char* where, const char* what) {
  if (!bytes.instanceof (val::global("Uint8Array"))) {
    throw InvalidArgument(std::string(where) + ": bytes must be a Uint8Array holding " + what);
  }
  ByteCopy copy(bytes["length"].as<size_t>());
  val(typed_memory_view(copy.size(), copy.data())).call<void>("set", bytes);
  return copy;
}

double number_option(const val& options, const char* name, const char* where) {
  const val value = options[name];
  if (!value.isNumber()) {
    throw InvalidArgument(std::string(where) + ": " + name + " must be a number");
  }
  return value.as<double>();
}

int whole_option(const val& options, const char* name, const char* where) {
  const val value = options[name];
  const double number = value.isNumber() ? value.as<double>() : 0.5;
  if (!(number >= -2147483648.0 && number <= 2147483647.0) ||
      number != static_cast<double>(static_cast<long long>(number))) {
    throw InvalidArgument(std::string(where) + ": " + name + " must be a whole number");
  }
  return static_cast<int>(number);
}

std::uint64_t seed_option(const val& options, const char* where) {
  const double seed = number_option(options, "seed", where);
  if (!(seed >= 0 && seed <= 4294967295.0) ||
      seed != static_cast<double>(static_cast<long long>(seed))) {
    throw InvalidArgument(std::string(where) +
                          ": seed must be a whole number from 0 to 4294967295");
  }
  return static_cast<std::uint64_t>(seed);
}

val float32_array(const float* data, size_t count) {
  return val::global("Float32Array").new_(typed_memory_view(count, data));
}

val float32_array(const Matrix& m) { return float32_array(m.data(), m.size()); }

val float32_array(const Vector& v) { return float32_array(v.data(), v.size()); }

val float32_array(const std::vector<double>& values) {
  const std::vector<float> rounded(values.begin(), values.end());
  return float32_array(rounded.data(), rounded.size());
}

}  // namespace attn::bindings

// Conversions between JavaScript values and the core's types. Every array is copied in and every
// result copied out, so no JavaScript view ever points into memory that may move.
#pragma once

#include <emscripten/val.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attn/matrix.hpp"

namespace attn::bindings {

using emscripten::val;

// array: a Float32Array (or any array of numbers) of rows * cols values -> (rows, cols).
// Throws InvalidArgument naming `name` when the array is missing or has the wrong length.
Matrix matrix_from(const val& array, int rows, int cols, const char* where, const char* name);

// array of n values -> (n). An `optional` argument may be undefined or null: empty vector.
Vector vector_from(const val& array, int n, const char* where, const char* name,
                   bool optional = false);

// Uint8Array (or array of booleans) of n_k flags, or undefined/null for no padding.
KeyPadding padding_from(const val& flags, int n_k, const char* where);

// array: n whole numbers (a plain or typed array) -> (n). Throws InvalidArgument naming `name`
// when it is missing, not an array, or holds anything but whole numbers.
std::vector<int> ints_from(const val& array, const char* where, const char* name);

// tokens: an array of n strings -> (n). Throws InvalidArgument ("<where>: tokens must be an array
// of strings", "<where>: token i is not a string") otherwise.
std::vector<std::string> strings_from(const val& tokens, const char* where);

// Bytes copied in from JavaScript: a buffer that is not zeroed first (a std::vector would be, in a
// loop over every byte before the copy overwrites them).
class ByteCopy {
 public:
  explicit ByteCopy(std::size_t size) : data_(new std::uint8_t[size]), size_(size) {}
  std::uint8_t* data() { return data_.get(); }
  const std::uint8_t* data() const { return data_.get(); }
  std::size_t size() const { return size_; }

 private:
  std::unique_ptr<std::uint8_t[]> data_;
  std::size_t size_;
};

// bytes: a Uint8Array -> a copy of its bytes. Throws InvalidArgument ("<where>: <what> must be a
// Uint8Array holding <what>") on anything else.
ByteCopy bytes_from(const val& bytes, const char* where, const char* what);

// options[name] as a number, or as a whole number that fits an int; throws InvalidArgument
// ("<where>: <name> must be a (whole) number") otherwise. The facades have checked the options;
// these refuse only what would not convert.
double number_option(const val& options, const char* name, const char* where);
int whole_option(const val& options, const char* name, const char* where);
// options.seed, a whole number from 0 to 4294967295.
std::uint64_t seed_option(const val& options, const char* where);

// A fresh Float32Array holding a copy of the values.
val float32_array(const float* data, size_t count);
val float32_array(const Matrix& m);
val float32_array(const Vector& v);
// (values rounded to float32)
val float32_array(const std::vector<double>& values);

// Inside a catch block: the message of the exception being handled, for an out-of-memory error
// one that names its likely cause. Rethrows anything that is not a std::exception.
inline std::string current_error_message() {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return "out of memory: the inputs are too large";
  } catch (const std::exception& error) {
    return error.what();
  }
}

// Runs `body`; a C++ exception becomes a JavaScript Error carrying its message.
template <typename Body>
auto guarded(Body&& body) -> decltype(body()) {
  std::string message;
  try {
    return body();
  } catch (const std::exception&) {
    message = current_error_message();
  }
  val::global("Error").new_(message).throw_();
}

}  // namespace attn::bindings

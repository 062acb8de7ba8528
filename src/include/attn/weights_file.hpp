// The one container every shipped model's weights live in: a file of named numbers, named texts
// and named tensors, each tensor stored in the encoding its model chose (float32, float16, or
// 8-bit rows with a float32 scale each). One writer and one reader, written and read from bytes
// in memory (the core does no file I/O); a model's own file code only says which numbers, texts
// and tensors it keeps. docs/weights-file.md gives the layout.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "attn/layers.hpp"
#include "attn/matrix.hpp"

namespace attn {

inline constexpr std::string_view kWeightsMagic = "ATTNWTFL";
inline constexpr std::uint32_t kWeightsVersion = 1;

enum class TensorEncoding : std::uint32_t {
  float32 = 0,    // 4 bytes a value
  float16 = 1,    // 2 bytes a value, IEEE 754 half precision, rounded to nearest even
  int8_rows = 2,  // per row: a float32 scale = max |x| / 127, then round(x / scale) as int8
};

struct WeightsTensor {
  std::string name;
  TensorEncoding encoding = TensorEncoding::float32;
  MatrixT<float> value;  // (rows, cols); after reading, the stored values, decoded
};

// What a file holds, in the order it holds it. Names: 1 to 128 bytes of letters, digits and
// "._-/", each unique within its section.
struct WeightsFile {
  std::string kind;  // what the file is: "translators", ...
  std::vector<std::pair<std::string, std::uint32_t>> numbers;  // sizes, hashes
  std::vector<std::pair<std::string, std::string>> texts;      // vocabularies
  std::vector<WeightsTensor> tensors;

  // -> the number called name. Throws InvalidArgument, naming `where`, when the file has none,
  // or when it lies outside [low, high].
  std::uint32_t number(const char* where, std::string_view name, std::uint32_t low = 0,
                       std::uint32_t high = 0xffffffffu) const;
  // -> the text called name. Throws InvalidArgument, naming `where`, when the file has none.
  const std::string& text(const char* where, std::string_view name) const;
};

// file -> its bytes. Throws InvalidArgument, naming `where`, on a name that is empty, too long,
// of other characters or given twice, an empty tensor, or a value its encoding cannot store (NaN
// or infinity in any of them; |x| >= 65520 in float16).
std::vector<std::uint8_t> encode_weights_file(const WeightsFile& file, const char* where);

// bytes: a whole file -> what it holds. Throws InvalidArgument, naming `where` and saying what is
// wrong, on a wrong magic, version or kind, a name as encode_weights_file refuses it, an unknown
// encoding, a tensor whose size is out of range, a scale that is negative or not finite, a stored
// infinity or NaN, or a file cut short or running on. Nothing is allocated for a tensor before
// its bytes are known to be in the file.
WeightsFile parse_weights_file(const std::uint8_t* bytes, std::size_t size, std::string_view kind,
                               const char* where);

// A size of a model's config as its file names it, with the range a file may give. A model lists
// its sizes once, in file order, and writes, reads and compares them through the three functions
// below.
template <typename Config>
struct ConfigSize {
  const char* name;
  int Config::*field;
  std::uint32_t low = 0, high = 1u << 24;
};

// Appends each size of `config` to the file's numbers, in the list's order.
template <typename Config, std::size_t N>
void add_sizes(WeightsFile& file, const Config& config, const ConfigSize<Config> (&sizes)[N]) {
  for (const ConfigSize<Config>& size : sizes) {
    file.numbers.emplace_back(size.name, static_cast<std::uint32_t>(config.*size.field));
  }
}

// Sets each size of `config` from the file. Throws InvalidArgument, naming `where`, on a size the
// file lacks or gives outside its range.
template <typename Config, std::size_t N>
void read_sizes(const WeightsFile& file, const char* where, const ConfigSize<Config> (&sizes)[N],
                Config& config) {
  for (const ConfigSize<Config>& size : sizes) {
    config.*size.field = static_cast<int>(file.number(where, size.name, size.low, size.high));
  }
}

// Whether two configs agree on every size of the list.
template <typename Config, std::size_t N>
bool same_sizes(const Config& a, const Config& b, const ConfigSize<Config> (&sizes)[N]) {
  for (const ConfigSize<Config>& size : sizes) {
    if (a.*size.field != b.*size.field) return false;
  }
  return true;
}

// Appends every parameter as a tensor named prefix + its name, in the given encoding.
void add_parameters(WeightsFile& file, std::string_view prefix,
                    const std::vector<Parameter<float>*>& parameters, TensorEncoding encoding);

// The tensors whose names begin with prefix, in file order, taken out of file: they must be
// exactly `shapes.size()` and each of its shape. names, when given, receives their names without
// the prefix. Throws InvalidArgument, naming `where`, otherwise.
std::vector<MatrixT<float>> take_parameters(WeightsFile& file, std::string_view prefix,
                                            const std::vector<std::pair<int, int>>& shapes,
                                            const char* where,
                                            std::vector<std::string>* names = nullptr);

// Throws InvalidArgument, naming `where`, unless parameters are named `names` in order: the check
// that a model made from take_parameters' values put each where the file's name says.
void require_parameter_names(const std::vector<Parameter<float>*>& parameters,
                             const std::vector<std::string>& names, const char* where);

// Throws InvalidArgument, naming `where`, when file still holds a tensor after its reader took
// its models' parameters: a file holds nothing its reader would silently drop.
void require_all_taken(const WeightsFile& file, const char* where);

// float -> the nearest float16 (ties to even), as its 16 bits. Throws InvalidArgument on NaN,
// infinity or |x| >= 65520 (which would round to infinity).
std::uint16_t float_to_half(float x);
// float16 bits -> float, exactly. Infinity and NaN codes come back as such.
float half_to_float(std::uint16_t bits);

}  // namespace attn

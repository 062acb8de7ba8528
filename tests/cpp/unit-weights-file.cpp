#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "attn/weights_file.hpp"
#include "helpers.hpp"

namespace {

using Mat = attn::MatrixT<float>;
using Bytes = std::vector<std::uint8_t>;
using attn::TensorEncoding;
using Catch::Matchers::Contains;

constexpr const char* kWhere = "test weights";

// A file of every section: two numbers, a text, and one tensor in each encoding.
attn::WeightsFile sample() {
  attn::WeightsFile f;
  f.kind = "sample";
  f.numbers = {{"width", 3}, {"hash", 0xdeadbeefu}};
  f.texts = {{"words", "haus\nbaum\n"}};
  f.tensors.push_back({"a/full", TensorEncoding::float32, test::random(2, 3, 1)});
  f.tensors.push_back({"a/half", TensorEncoding::float16, test::random(3, 2, 2)});
  f.tensors.push_back({"b.rows", TensorEncoding::int8_rows, test::random(4, 5, 3)});
  return f;
}

Bytes encode(const attn::WeightsFile& f) { return attn::encode_weights_file(f, kWhere); }

attn::WeightsFile parse(const Bytes& b, std::string_view kind = "sample") {
  return attn::parse_weights_file(b.data(), b.size(), kind, kWhere);
}

void put_u32(Bytes& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

// The offset of the first byte after the first occurrence of `text` in b.
std::size_t after(const Bytes& b, const std::string& text) {
  const auto at = std::search(b.begin(), b.end(), text.begin(), text.end());
  REQUIRE(at != b.end());
  return static_cast<std::size_t>(at - b.begin()) + text.size();
}

}  // namespace

TEST_CASE("weights file: float16 conversion rounds to nearest even and reads back exactly",
          "[weights-file]") {
  CHECK(attn::float_to_half(1.0f) == 0x3c00);
  CHECK(attn::float_to_half(-2.0f) == 0xc000);
  CHECK(attn::float_to_half(0.0f) == 0x0000);
  CHECK(attn::float_to_half(-0.0f) == 0x8000);
  CHECK(attn::float_to_half(65504.0f) == 0x7bff);
  CHECK(attn::float_to_half(0.1f) == 0x2e66);
  CHECK(attn::float_to_half(std::ldexp(1.0f, -24)) == 0x0001);  // smallest subnormal
  CHECK(attn::float_to_half(std::ldexp(1.0f, -26)) == 0x0000);  // below half of it
  CHECK(attn::float_to_half(std::ldexp(1.0f, -14)) == 0x0400);  // smallest normal
  // Ties between two float16s go to the even one.
  CHECK(attn::float_to_half(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);
  CHECK(attn::float_to_half(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3c02);
  CHECK(attn::float_to_half(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)) == 0x3c01);
  // A carry out of the mantissa moves to the next binade.
  CHECK(attn::float_to_half(2.0f - std::ldexp(1.0f, -12)) == 0x4000);
  CHECK_THROWS_AS(attn::float_to_half(65520.0f), attn::InvalidArgument);
  CHECK_THROWS_AS(attn::float_to_half(INFINITY), attn::InvalidArgument);
  CHECK_THROWS_AS(attn::float_to_half(NAN), attn::InvalidArgument);
  CHECK(attn::float_to_half(65519.0f) == 0x7bff);

  // Every finite float16 reads back as a float that converts to the same code.
  int checked = 0;
  for (std::uint32_t h = 0; h < 65536; ++h) {
    if ((h & 0x7c00u) == 0x7c00u) continue;
    const float x = attn::half_to_float(static_cast<std::uint16_t>(h));
    REQUIRE(attn::float_to_half(x) == h);
    ++checked;
  }
  CHECK(checked == 63488);
  CHECK(attn::half_to_float(0x3555) == Approx(0.333251953125f).epsilon(0));
  CHECK(std::isinf(attn::half_to_float(0x7c00)));
}

TEST_CASE("weights file: every section comes back, each tensor within its encoding's step",
          "[weights-file]") {
  const attn::WeightsFile original = sample();
  const Bytes bytes = encode(original);
  CHECK(std::memcmp(bytes.data(), "ATTNWTFL", 8) == 0);
  const attn::WeightsFile back = parse(bytes);
  CHECK(back.kind == "sample");
  CHECK(back.numbers == original.numbers);
  CHECK(back.texts == original.texts);
  CHECK(back.number(kWhere, "hash") == 0xdeadbeefu);
  CHECK(back.text(kWhere, "words") == "haus\nbaum\n");
  REQUIRE(back.tensors.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    INFO(original.tensors[i].name);
    CHECK(back.tensors[i].name == original.tensors[i].name);
    CHECK(back.tensors[i].encoding == original.tensors[i].encoding);
    REQUIRE(back.tensors[i].value.rows() == original.tensors[i].value.rows());
    REQUIRE(back.tensors[i].value.cols() == original.tensors[i].value.cols());
  }
  // float32 exactly; float16 within half a unit in its last place (11 significant bits); int8
  // rows within half a step of the row's scale.
  CHECK(back.tensors[0].value == original.tensors[0].value);
  const Mat& half = original.tensors[1].value;
  for (Eigen::Index k = 0; k < half.size(); ++k) {
    const float x = half.data()[k], q = back.tensors[1].value.data()[k];
    CHECK(std::abs(x - q) <= std::abs(x) * std::ldexp(1.0f, -11) + std::ldexp(1.0f, -25));
  }
  const Mat& rows = original.tensors[2].value;
  for (Eigen::Index r = 0; r < rows.rows(); ++r) {
    const float step = rows.row(r).cwiseAbs().maxCoeff() / 127.0f;
    CHECK((rows.row(r) - back.tensors[2].value.row(r)).cwiseAbs().maxCoeff() <=
          step * 0.5f * 1.0001f);
  }
  // What was read writes the very same bytes again: the stored values are a fixed point.
  CHECK(encode(back) == bytes);
  CHECK_THROWS_WITH(back.number(kWhere, "depth"), Contains("test weights: the file has no number"));
  CHECK_THROWS_WITH(back.number(kWhere, "width", 4, 9), Contains("width is 3; it must be from 4"));
  CHECK_THROWS_WITH(back.text(kWhere, "names"), Contains("the file has no text names"));
}

TEST_CASE("weights file: an all-zero row and an empty section are stored as such",
          "[weights-file]") {
  attn::WeightsFile f;
  f.kind = "zeros";
  f.tensors.push_back({"z", TensorEncoding::int8_rows, Mat::Zero(2, 3)});
  const attn::WeightsFile back = parse(encode(f), "zeros");
  CHECK(back.numbers.empty());
  CHECK(back.texts.empty());
  CHECK(back.tensors[0].value == Mat::Zero(2, 3));
}

TEST_CASE("weights file: every broken field is refused, saying which", "[weights-file]") {
  const Bytes good = encode(sample());
  REQUIRE_NOTHROW(parse(good));
  const auto fails_with = [](const Bytes& b, const char* what) {
    CHECK_THROWS_WITH(parse(b), Contains(kWhere) && Contains(what));
  };
  const auto with = [&](std::size_t at, std::uint8_t value) {
    Bytes b = good;
    b[at] = value;
    return b;
  };
  fails_with({good.begin(), good.begin() + 5}, "truncated");
  fails_with(with(1, 'X'), "not a weights file");
  fails_with(with(8, 7), "format version 7");
  CHECK_THROWS_WITH(parse(good, "translators"), Contains("the file holds sample, not translators"));
  // Every cut falls in some section, which the message names.
  for (std::size_t size = 12; size < good.size(); size += 7) {
    fails_with({good.begin(), good.begin() + static_cast<long>(size)}, "truncated in");
  }
  Bytes longer = good;
  longer.push_back(0);
  fails_with(longer, "the file has 1 extra bytes");
  CHECK_THROWS_WITH(attn::parse_weights_file(nullptr, 40, "sample", kWhere), Contains("truncated"));

  // Names: a character outside the set, and a length beyond the file.
  fails_with(with(after(good, "wid") - 1, ' '), "number 0 has an invalid name");
  Bytes counts = good;
  put_u32(counts, after(good, "sample"), 0x7fffffff);
  fails_with(counts, "the file says it holds 2147483647 numbers; at most 65536");
  Bytes long_name = good;
  put_u32(long_name, after(good, "sample") + 4, 0x7fffffff);
  fails_with(long_name, "truncated in number 0");
  // A name given twice: the second tensor renamed as the first.
  Bytes twice = good;
  std::memcpy(twice.data() + after(good, "a/half") - 4, "full", 4);
  fails_with(twice, "the tensor a/full appears twice");

  // The first tensor (a/full): encoding, rows, cols, then its values.
  const std::size_t encoding = after(good, "a/full");
  fails_with(with(encoding, 3), "the tensor a/full has an unknown encoding 3");
  Bytes no_rows = good;
  put_u32(no_rows, encoding + 4, 0);
  fails_with(no_rows, "the tensor a/full is 0x3; each side must be from 1 to 2^24");
  Bytes huge = good;
  put_u32(huge, encoding + 4, 1u << 20);
  fails_with(huge, "truncated in the tensor a/full");
  Bytes nan = good;
  put_u32(nan, encoding + 12, 0x7fc00000u);
  fails_with(nan, "the tensor a/full holds an infinity or NaN");
  // The float16 tensor's first value made infinity (0x7c00).
  const std::size_t half = after(good, "a/half") + 12;
  fails_with(with(half + 1, 0x7c), "the tensor a/half holds an infinity or NaN");
  // The int8 tensor's first scale made -1.5 (0xbfc00000), then NaN.
  const std::size_t scale = after(good, "b.rows") + 12;
  Bytes negative = good;
  put_u32(negative, scale, 0xbfc00000u);
  fails_with(negative, "the tensor b.rows has a scale that is negative or not finite");
  put_u32(negative, scale, 0x7fc00000u);
  fails_with(negative, "the tensor b.rows has a scale that is negative or not finite");
}

TEST_CASE("weights file: what cannot be written is refused", "[weights-file]") {
  attn::WeightsFile f = sample();
  f.kind = "no spaces";
  CHECK_THROWS_WITH(encode(f), Contains("the kind \"no spaces\" is not a name"));
  f = sample();
  f.numbers.push_back({"width", 4});
  CHECK_THROWS_WITH(encode(f), Contains("the number width appears twice"));
  f = sample();
  f.texts.push_back({std::string(129, 'x'), ""});
  CHECK_THROWS_WITH(encode(f), Contains("is no name"));
  f = sample();
  f.tensors.push_back({"empty", TensorEncoding::float32, Mat(0, 3)});
  CHECK_THROWS_WITH(encode(f), Contains("the tensor empty is 0x3"));
  f = sample();
  f.tensors[2].value(1, 1) = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH(encode(f), Contains("b.rows contains NaN or infinity"));
  f = sample();
  f.tensors[1].value(0, 0) = 1e6f;
  CHECK_THROWS_WITH(encode(f), Contains("beyond float16's range"));
}

TEST_CASE("weights file: a model's parameters go in under a prefix and come out checked",
          "[weights-file]") {
  attn::Parameter<float> w("w", test::random(2, 3, 4)), b("b", test::random(1, 3, 5));
  attn::WeightsFile f;
  f.kind = "model";
  attn::add_parameters(f, "one/", {&w, &b}, TensorEncoding::float32);
  attn::add_parameters(f, "two/", {&b}, TensorEncoding::float32);
  attn::WeightsFile read = parse(encode(f), "model");

  std::vector<std::string> names;
  const std::vector<Mat> values =
      attn::take_parameters(read, "one/", {{2, 3}, {1, 3}}, kWhere, &names);
  CHECK(names == std::vector<std::string>{"w", "b"});
  REQUIRE(values.size() == 2);
  CHECK(values[0] == w.value);
  CHECK(values[1] == b.value);
  CHECK_NOTHROW(attn::require_parameter_names({&w, &b}, names, kWhere));
  CHECK_THROWS_WITH(attn::require_parameter_names({&b, &w}, names, kWhere),
                    Contains("the file's tensor 0 is w where the model has b"));
  // What was taken is gone; what is left is named when nothing reads it.
  CHECK_THROWS_WITH(attn::require_all_taken(read, kWhere),
                    Contains("holds a tensor two/b that no model of it reads"));
  attn::WeightsFile again = read;
  CHECK_THROWS_WITH(attn::take_parameters(again, "two/", {{1, 3}, {2, 3}}, kWhere),
                    Contains("the file has 1 tensors under \"two/\"; the model has 2 parameters"));
  again = read;
  CHECK_THROWS_WITH(attn::take_parameters(again, "two/", {}, kWhere),
                    Contains("more tensors under \"two/\" than the model's 0"));
  again = read;
  CHECK_THROWS_WITH(attn::take_parameters(again, "two/", {{3, 1}}, kWhere),
                    Contains("the tensor two/b is 1x3 but must be 3x1"));
  attn::take_parameters(read, "two/", {{1, 3}}, kWhere);
  CHECK_NOTHROW(attn::require_all_taken(read, kWhere));
}

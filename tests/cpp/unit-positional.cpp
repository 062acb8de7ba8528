#include <catch2/catch.hpp>
#include <cmath>

#include "attn/positional.hpp"

TEST_CASE("positional encoding follows the sine and cosine formula", "[positional]") {
  const int n = 50, d = 16;
  const attn::Matrix pe = attn::positional_encoding(n, d);
  REQUIRE(pe.rows() == n);
  REQUIRE(pe.cols() == d);
  for (int pos : {0, 1, 7, 49}) {
    for (int i = 0; i < d / 2; ++i) {
      const double angle = pos / std::pow(10000.0, 2.0 * i / d);
      CHECK(pe(pos, 2 * i) == Approx(std::sin(angle)).margin(1e-6));
      CHECK(pe(pos, 2 * i + 1) == Approx(std::cos(angle)).margin(1e-6));
    }
  }
  CHECK((pe.array().abs() <= 1.0f).all());
}

TEST_CASE("positional encoding handles an odd width", "[positional]") {
  const attn::Matrix pe = attn::positional_encoding(3, 5);
  CHECK(pe(2, 4) == Approx(std::sin(2.0 / std::pow(10000.0, 4.0 / 5))).margin(1e-6));
}

TEST_CASE("positional encoding gives every position its own code", "[positional]") {
  const attn::Matrix pe = attn::positional_encoding(64, 32);
  for (int a = 0; a < 64; ++a) {
    for (int b = a + 1; b < 64; ++b) REQUIRE((pe.row(a) - pe.row(b)).norm() > 0.1f);
  }
}

TEST_CASE("positional encoding rejects empty sizes", "[positional]") {
  CHECK_THROWS_WITH(attn::positional_encoding(0, 4), Catch::Contains("n=0"));
  CHECK_THROWS_WITH(attn::positional_encoding(4, -1), Catch::Contains("d=-1"));
}

TEST_CASE("positional encoding refuses sizes too large to hold", "[positional]") {
  // The count of values is checked before anything is allocated: 100000 x 100000 is refused with
  // InvalidArgument, not left to run out of memory (std::bad_alloc).
  CHECK_THROWS_AS(attn::positional_encoding(100000, 100000), attn::InvalidArgument);
  CHECK_THROWS_WITH(attn::positional_encoding(1 << 16, 1 << 11), Catch::Contains("65536x2048"));
  CHECK(attn::positional_encoding(1 << 10, 64).size() == (1 << 16));
}

#include <catch2/catch.hpp>
#include <cmath>

#include "attn/random.hpp"

TEST_CASE("the portable logarithm matches the library one", "[random]") {
  for (double x : {1e-300, 1e-20, 0.001, 0.3, 0.5, 0.7071, 1.0, 1.5, 2.0, 10.0, 12345.678, 1e300}) {
    CHECK(attn::portable_log(x) == Approx(std::log(x)).epsilon(1e-15).margin(1e-15));
  }
}

TEST_CASE("a seed always gives the same numbers", "[random]") {
  CHECK(attn::unit_normal(4, 5, 42) == attn::unit_normal(4, 5, 42));
  CHECK(attn::glorot_uniform(4, 5, 42) == attn::glorot_uniform(4, 5, 42));
  CHECK(attn::unit_normal(4, 5, 42) != attn::unit_normal(4, 5, 43));
}

TEST_CASE("unit normal samples have mean 0 and variance 1", "[random]") {
  const attn::Matrix x = attn::unit_normal(200, 100, 7);
  const double mean = x.cast<double>().mean();
  const double variance = (x.cast<double>().array() - mean).square().mean();
  CHECK(std::abs(mean) < 0.02);  // standard error 0.007
  CHECK(variance == Approx(1.0).epsilon(0.03));
  // About 68% within one standard deviation.
  const double within = (x.array().abs() < 1.0f).cast<double>().mean();
  CHECK(within == Approx(0.6827).epsilon(0.02));
}

TEST_CASE("glorot uniform stays within its limit and fills it", "[random]") {
  const attn::Matrix w = attn::glorot_uniform(60, 40, 3);
  const float limit = std::sqrt(6.0f / 100.0f);
  CHECK(w.maxCoeff() <= limit);
  CHECK(w.minCoeff() >= -limit);
  CHECK(w.maxCoeff() > 0.95f * limit);
  CHECK(w.minCoeff() < -0.95f * limit);
  // Uniform on [-a, a] has variance a^2 / 3.
  CHECK(w.array().square().mean() == Approx(limit * limit / 3).epsilon(0.05));
}

TEST_CASE("random sizes are checked", "[random]") {
  CHECK_THROWS_WITH(attn::unit_normal(0, 3, 1), Catch::Contains("0x3"));
  CHECK_THROWS_WITH(attn::glorot_uniform(2, -1, 1), Catch::Contains("2x-1"));
}

TEST_CASE("random sizes too large to hold are refused", "[random]") {
  // As for positional encoding: the count of values is checked before anything is allocated.
  CHECK_THROWS_AS(attn::unit_normal(2147483647, 2147483647, 1), attn::InvalidArgument);
  CHECK_THROWS_WITH(attn::glorot_uniform(1 << 20, 1 << 10, 1), Catch::Contains("values"));
}

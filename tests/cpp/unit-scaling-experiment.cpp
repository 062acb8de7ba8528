#include <catch2/catch.hpp>
#include <cmath>

#include "attn/scaling_experiment.hpp"

TEST_CASE("unscaled dot products have variance d_k, scaled ones 1", "[scaling-experiment]") {
  for (int d_k : {1, 16, 256}) {
    INFO("d_k=" << d_k);
    const auto r = attn::scaling_experiment({d_k, 8000, 16, 50, 3});
    CHECK(r.unscaled.samples.size() == 8000);
    CHECK(r.unscaled.variance == Approx(d_k).epsilon(0.1));
    CHECK(r.scaled.variance == Approx(1.0).epsilon(0.1));
    CHECK(std::abs(r.scaled.mean) < 0.05);
  }
}

TEST_CASE("without scaling softmax saturates as d_k grows", "[scaling-experiment]") {
  const auto small = attn::scaling_experiment({4, 100, 16, 300, 5});
  const auto large = attn::scaling_experiment({512, 100, 16, 300, 5});
  CHECK(large.unscaled.max_weight > 0.9);
  CHECK(large.unscaled.max_weight > small.unscaled.max_weight);
  CHECK(large.unscaled.entropy < small.unscaled.entropy);
  CHECK(large.unscaled.gradient_norm < small.unscaled.gradient_norm / 2);
  // Scaled, the softmax looks the same whatever d_k.
  CHECK(large.scaled.max_weight == Approx(small.scaled.max_weight).epsilon(0.15));
  CHECK(large.scaled.entropy <= std::log(16.0));
}

TEST_CASE("the scaling experiment checks its settings", "[scaling-experiment]") {
  CHECK_THROWS_WITH(attn::scaling_experiment({0, 100, 16, 10, 1}), Catch::Contains("d_k"));
  CHECK_THROWS_WITH(attn::scaling_experiment({8, 100, 1, 10, 1}), Catch::Contains("keys"));
}

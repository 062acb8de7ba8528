#include <catch2/catch.hpp>
#include <stdexcept>
#include <vector>

#include "attn/bottleneck.hpp"

namespace {

attn::BottleneckOptions options(std::vector<int> counts, int width, int trials,
                                std::uint64_t seed = 1, int codebook = 16) {
  attn::BottleneckOptions o;
  o.counts = std::move(counts);
  o.width = width;
  o.codebook = codebook;
  o.trials = trials;
  o.seed = seed;
  return o;
}

}  // namespace

TEST_CASE("attention reads back every fact however many are stored", "[bottleneck]") {
  for (int width : {32, 64}) {
    INFO("width=" << width);
    const auto r = attn::bottleneck_experiment(options({1, 4, 16, 64, 256}, width, 4));
    REQUIRE(r.attention.size() == 5);
    for (size_t i = 0; i < r.counts.size(); ++i) {
      INFO("N=" << r.counts[i]);
      CHECK(r.attention[i] >= 0.99);
    }
  }
}

TEST_CASE("one fixed vector loses facts once N grows past its width", "[bottleneck]") {
  const int width = 64;
  const auto r = attn::bottleneck_experiment(options({1, 2, 16, 64, 128, 256}, width, 6));
  CHECK(r.counts == std::vector<int>{1, 2, 16, 64, 128, 256});
  // One or two facts come back whole: a single value is exact, and two barely disturb each other.
  CHECK(r.fixed_vector[0] == 1.0);
  CHECK(r.fixed_vector[1] >= 0.9);
  // Past the width, most reads fail, and more facts fail more; attention does not.
  CHECK(r.fixed_vector[3] < 0.5);
  CHECK(r.fixed_vector[4] < r.fixed_vector[2]);
  CHECK(r.fixed_vector[5] < r.fixed_vector[3]);
  CHECK(r.fixed_vector[5] < 0.3);
  CHECK(r.attention[5] - r.fixed_vector[5] > 0.6);
  // A wider vector holds more: at N = 64 a 256-wide one beats a 16-wide one by far.
  const auto narrow = attn::bottleneck_experiment(options({64}, 16, 6));
  const auto wide = attn::bottleneck_experiment(options({64}, 256, 6));
  CHECK(wide.fixed_vector[0] > narrow.fixed_vector[0] + 0.3);
}

TEST_CASE("accuracies are shares of the reads made", "[bottleneck]") {
  const int trials = 3;
  const auto r = attn::bottleneck_experiment(options({1, 3, 10, 50}, 32, trials, 9));
  for (size_t i = 0; i < r.counts.size(); ++i) {
    const double reads = static_cast<double>(r.counts[i]) * trials;
    for (double share : {r.fixed_vector[i], r.attention[i]}) {
      CHECK(share >= 0.0);
      CHECK(share <= 1.0);
      // A whole number of right answers out of N * trials reads.
      const double right = share * reads;
      CHECK(right == Approx(static_cast<double>(static_cast<long long>(right + 0.5))));
    }
  }
}

TEST_CASE("the same seed gives the same numbers, another seed other facts", "[bottleneck]") {
  const std::vector<int> counts{2, 8, 32, 128};
  const auto a = attn::bottleneck_experiment(options(counts, 64, 4, 5));
  const auto b = attn::bottleneck_experiment(options(counts, 64, 4, 5));
  CHECK(a.fixed_vector == b.fixed_vector);
  CHECK(a.attention == b.attention);
  const auto c = attn::bottleneck_experiment(options(counts, 64, 4, 6));
  CHECK(c.fixed_vector != a.fixed_vector);
}

TEST_CASE("a count's numbers do not depend on the other counts asked for", "[bottleneck]") {
  const auto all = attn::bottleneck_experiment(options({4, 16, 64, 100}, 32, 3, 11));
  const std::vector<int> counts = all.counts;
  for (size_t i = 0; i < counts.size(); ++i) {
    INFO("N=" << counts[i]);
    const auto one = attn::bottleneck_experiment(options({counts[i]}, 32, 3, 11));
    CHECK(one.fixed_vector[0] == all.fixed_vector[i]);
    CHECK(one.attention[0] == all.attention[i]);
  }
}

TEST_CASE("the bottleneck experiment checks its settings", "[bottleneck]") {
  using Catch::Contains;
  const auto run = [](attn::BottleneckOptions o) { attn::bottleneck_experiment(o); };
  CHECK_THROWS_AS(run(options({}, 64, 4)), std::invalid_argument);
  CHECK_THROWS_WITH(run(options({}, 64, 4)), Contains("counts"));
  CHECK_THROWS_WITH(run(options({0, 4}, 64, 4)), Contains("counts[0]"));
  CHECK_THROWS_WITH(run(options({4, 4}, 64, 4)), Contains("counts must increase"));
  CHECK_THROWS_WITH(run(options({8, 2}, 64, 4)), Contains("counts[1] = 2 follows 8"));
  CHECK_THROWS_WITH(run(options({4}, 0, 4)), Contains("width"));
  CHECK_THROWS_WITH(run(options({4}, 2000, 4)), Contains("width"));
  CHECK_THROWS_WITH(run(options({4}, 64, 0)), Contains("trials"));
  CHECK_THROWS_WITH(run(options({4}, 64, 4, 1, 1)), Contains("codebook"));
  CHECK_THROWS_WITH(run(options({4096}, 1024, 1000)), Contains("million operations"));
  CHECK_THROWS_WITH(run(options({4}, 0, 4)), Contains("bottleneck experiment"));
}

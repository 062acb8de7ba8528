#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "../../src/ordered_math.hpp"
#include "../../src/simd.hpp"
#include "../../src/simd_matmul.hpp"
#include "attn/random.hpp"
#include "helpers.hpp"

namespace {

using Mat = attn::Matrix;

// The product as the kernel forms it: each entry summed over p in order, in double for the bound.
Mat reference(const Mat& a, const Mat& b) {
  return (a.cast<double>() * b.cast<double>()).cast<float>();
}

}  // namespace

TEST_CASE("simd matmul equals the product for every shape of block and tail", "[simd-matmul]") {
  std::uint64_t seed = 40;
  for (const int n : {1, 3, 4, 5, 9, 64}) {
    for (const int k : {1, 2, 7, 100, 128}) {
      for (const int m : {1, 3, 4, 8, 13, 128, 131}) {
        const Mat a = test::random(n, k, seed++);
        const Mat b = test::random(k, m, seed++);
        Mat c = Mat::Constant(n, m, 99.0f);
        attn::simd::matmul(a.data(), n, k, b.data(), m, c.data());
        const Mat expected = reference(a, b);
        INFO("n " << n << " k " << k << " m " << m);
        CHECK((c - expected).cwiseAbs().maxCoeff() <=
              1e-5f * std::max(1.0f, expected.cwiseAbs().maxCoeff()));
      }
    }
  }
}

TEST_CASE("simd matmul sums each entry in order, whatever block it falls in", "[simd-matmul]") {
  // Row 0 and column 0 of a 5 x 9 product fall in a 4 x 8 block; row 4 and column 8 in tails. Each
  // entry must equal the plain in-order float sum exactly.
  const Mat a = test::random(5, 37, 7);
  const Mat b = test::random(37, 9, 8);
  Mat c(5, 9);
  attn::simd::matmul(a.data(), 5, 37, b.data(), 9, c.data());
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 9; ++j) {
      float sum = 0;
      for (int p = 0; p < 37; ++p) sum += a(i, p) * b(p, j);
      CHECK(c(i, j) == sum);
    }
  }
}

TEST_CASE("simd matmul of a single row sums each entry in order, in every block of columns",
          "[simd-matmul]") {
  // 77 columns of one row: two blocks of 32, one of 8, one of 4 and one column alone. Row 4 of a
  // 5-row product is such a row too, after a 4-row block.
  for (const int n : {1, 5}) {
    const Mat a = test::random(n, 37, 9);
    const Mat b = test::random(37, 77, 10);
    Mat c(n, 77);
    attn::simd::matmul(a.data(), n, 37, b.data(), 77, c.data());
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < 77; ++j) {
        float sum = 0;
        for (int p = 0; p < 37; ++p) sum += a(i, p) * b(p, j);
        CHECK(c(i, j) == sum);
      }
    }
  }
}

TEST_CASE("simd matmul_transposed equals the product with the transpose", "[simd-matmul]") {
  std::uint64_t seed = 900;
  for (const int n : {1, 2, 5}) {
    for (const int k : {1, 3, 4, 100, 102}) {
      for (const int m : {1, 3, 4, 7, 64}) {
        const Mat a = test::random(n, k, seed++);
        const Mat b = test::random(m, k, seed++);
        Mat c = Mat::Constant(n, m, 99.0f);
        attn::simd::matmul_transposed(a.data(), n, k, b.data(), m, c.data());
        const Mat expected = reference(a, b.transpose());
        INFO("n " << n << " k " << k << " m " << m);
        CHECK((c - expected).cwiseAbs().maxCoeff() <=
              1e-5f * std::max(1.0f, expected.cwiseAbs().maxCoeff()));
      }
    }
  }
}

TEST_CASE("four-lane portable exp and tanh give the scalar ones' bits", "[simd-matmul]") {
  std::vector<float> xs{0.0f,  -0.0f, 0.1249f, 0.125f, -0.125f, 1e-30f, -87.0f, -87.5f,
                        88.0f, 89.0f, -1e30f,  3.0f,   -3.0f,   20.0f,  -20.0f};
  attn::Rng rng(5);
  for (int i = 0; i < 20000; ++i) xs.push_back(static_cast<float>((rng.uniform() - 0.5) * 24.0));
  while (xs.size() % 4 != 0) xs.push_back(0.5f);
  for (std::size_t i = 0; i < xs.size(); i += 4) {
    const attn::simd::f32x4 x = attn::simd::load(xs.data() + i);
    const attn::simd::f32x4 e = attn::simd::portable_exp(x), t = attn::simd::portable_tanh(x);
    for (int lane = 0; lane < 4; ++lane) {
      const float v = xs[i + lane];
      INFO("x = " << v);
      const float vector_exp = e[lane], vector_tanh = t[lane];
      const float scalar_exp = attn::detail::portable_exp(v);
      const float scalar_tanh = attn::detail::portable_tanh(v);
      CHECK(std::memcmp(&vector_exp, &scalar_exp, 4) == 0);
      CHECK(std::memcmp(&vector_tanh, &scalar_tanh, 4) == 0);
    }
  }
}

TEST_CASE("the ordered product gives add_product's bits, in every build", "[simd-matmul]") {
  // In wasm detail::product runs through simd::matmul; it must round exactly as the loops of
  // add_product do, or training would stop matching natively.
  // k 300 and m 600 span two depth panels and two column panels, whose joins must not show.
  std::uint64_t seed = 300;
  for (const int n : {1, 4, 7, 64}) {
    for (const int k : {1, 5, 32, 64, 300}) {
      for (const int m : {1, 6, 32, 64, 79, 600}) {
        const Mat a = test::random(n, k, seed++);
        const Mat b = test::random(k, m, seed++);
        const Mat c = attn::detail::product(a, b);
        Mat loops = Mat::Zero(n, m);
        attn::detail::add_product(loops.data(), a.data(), b.data(), n, k, m);
        INFO("n " << n << " k " << k << " m " << m);
        CHECK(std::memcmp(c.data(), loops.data(), sizeof(float) * c.size()) == 0);
      }
    }
  }
}

TEST_CASE("add_transposed_matmul gives add_transposed_product's bits", "[simd-matmul]") {
  // c += a^T b, each entry summed over the rows of a in order after what c holds: the weight
  // gradients of training. 300 rows span two depth panels.
  std::uint64_t seed = 500;
  for (const int n : {1, 3, 64, 300}) {
    for (const int k : {1, 4, 9, 70}) {
      for (const int m : {1, 5, 32, 77, 600}) {
        const Mat a = test::random(n, k, seed++);
        const Mat b = test::random(n, m, seed++);
        const Mat start = test::random(k, m, seed++);
        Mat kernel = start, loops = start;
        attn::detail::add_transposed_product(kernel, a, b);
        attn::detail::add_transposed_product(loops.data(), a.data(), b.data(), n, k, m);
        INFO("n " << n << " k " << k << " m " << m);
        CHECK(std::memcmp(kernel.data(), loops.data(), sizeof(float) * kernel.size()) == 0);
      }
    }
  }
}

TEST_CASE("the ordered products of empty matrices are empty or zero", "[simd-matmul]") {
  // Eigen's empty matrices may hold a null pointer: nothing may be written through it.
  const Mat none(0, 3), wide(3, 0);
  const Mat ones34 = Mat::Ones(3, 4), ones23 = Mat::Ones(2, 3);
  CHECK(attn::detail::product(none, ones34).rows() == 0);
  CHECK(attn::detail::product(ones23, Mat(3, 0)).cols() == 0);
  CHECK(attn::detail::product(wide, Mat(0, 5)) == Mat::Zero(3, 5));
  Mat c = Mat::Ones(3, 4);
  attn::detail::add_transposed_product(c, Mat(0, 3), Mat(0, 4));
  CHECK(c == Mat::Ones(3, 4));
  Mat empty(0, 0);
  attn::detail::add_transposed_product(empty, Mat(5, 0), Mat(5, 0));
  CHECK(empty.size() == 0);
}

TEST_CASE("products with a packed right operand give matmul's bits", "[simd-matmul]") {
  // The attention packs k^T and v once and multiplies blocks of rows by them; each entry must
  // still be summed over the depth in order. Rows of a are read lda = k + 3 floats apart.
  std::uint64_t seed = 500;
  for (const int n : {1, 3, 4, 8, 13}) {
    for (const int k : {1, 5, 16, 64, 300}) {
      for (const int m : {1, 7, 8, 16, 17, 64, 70}) {
        const Mat a_wide = test::random(n, k + 3, seed++);
        const Mat a = a_wide.leftCols(k);
        const Mat b = test::random(k, m, seed++);
        Mat expected(n, m);
        attn::simd::matmul(a.data(), n, k, b.data(), m, expected.data());
        std::vector<float> packed(static_cast<size_t>(k) * static_cast<size_t>(m));
        Mat c = Mat::Constant(n, m, 99.0f);
        attn::simd::pack_right(b.data(), k, m, packed.data());
        attn::simd::matmul_packed(a_wide.data(), k + 3, n, k, packed.data(), m, c.data(), m);
        INFO("n " << n << " k " << k << " m " << m);
        CHECK(std::memcmp(c.data(), expected.data(), sizeof(float) * c.size()) == 0);
        // The same B packed from its transpose.
        const Mat b_t = b.transpose();
        c.setConstant(99.0f);
        attn::simd::pack_right_transposed(b_t.data(), m, k, packed.data());
        attn::simd::matmul_packed(a_wide.data(), k + 3, n, k, packed.data(), m, c.data(), m);
        CHECK(std::memcmp(c.data(), expected.data(), sizeof(float) * c.size()) == 0);
      }
    }
  }
}

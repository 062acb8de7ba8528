// libFuzzer target for the core's public entry points (src/include/attn/*.hpp).
//
// The rule it checks: every input either returns or throws attn::InvalidArgument. A crash, an
// abort (an Eigen assertion included: the fuzz preset keeps them), a sanitizer report
// (AddressSanitizer: out-of-bounds, use-after-free, leaks; UndefinedBehaviorSanitizer: overflow,
// bad shifts, bad casts), a hang, or any other exception escaping is a finding.
//
// How the bytes are read: the first byte picks the entry point; the rest is read in order by
// `FuzzInput` as sizes, flags and numbers (an input that runs out reads zeros). Shapes stay small
// (at most kMaxDim rows or columns, short sequences, a step or two of training), so one run
// takes well under a millisecond and the fuzzer explores shapes and flags rather than sizes.
// Numbers come from a table of awkward values (0, -0, +-1, huge, tiny, subnormal, +-inf, NaN) or
// straight from four input bytes.
//
// Build and run (scripts/fuzz.sh does both; `npm test` runs it for 60 s, `npm run fuzz` longer):
//   cmake --preset fuzz && cmake --build --preset fuzz
//   build/fuzz/tests/fuzz/attn_fuzz build/fuzz/corpus tests/fuzz/corpus -max_total_time=60
// The committed seeds in tests/fuzz/corpus/ (one small file per entry point, and a valid
// word-vector file) start each run; what the fuzzer finds on top goes to build/fuzz/corpus, and
// an input that fails is written to build/fuzz/findings/. To replay one:
//   build/fuzz/tests/fuzz/attn_fuzz build/fuzz/findings/crash-<hash>
// Fix the core, add the input's case to tests/cpp/unit-<feature>.cpp, and keep the file as a
// seed here if it reaches code the others do not.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "attn/adam.hpp"
#include "attn/attention.hpp"
#include "attn/attention_grad.hpp"
#include "attn/bottleneck.hpp"
#include "attn/embeddings.hpp"
#include "attn/gru.hpp"
#include "attn/layers.hpp"
#include "attn/lm_training.hpp"
#include "attn/lm_weights.hpp"
#include "attn/loss.hpp"
#include "attn/matrix.hpp"
#include "attn/multi_head.hpp"
#include "attn/positional.hpp"
#include "attn/random.hpp"
#include "attn/reversal_task.hpp"
#include "attn/scaling_experiment.hpp"
#include "attn/scoring.hpp"
#include "attn/seq2seq.hpp"
#include "attn/softmax.hpp"
#include "attn/trainer.hpp"
#include "attn/transformer_training.hpp"
#include "attn/transformer_weights.hpp"
#include "attn/translation_corpus.hpp"
#include "attn/translator.hpp"
#include "attn/translator_training.hpp"
#include "attn/translator_weights.hpp"

namespace {

using attn::Matrix;
using attn::MatrixT;
using attn::Vector;

constexpr int kMaxDim = 8;  // rows and columns of any matrix the target builds

// Reads the fuzz input front to back; past its end, every read gives zero.
class FuzzInput {
 public:
  FuzzInput(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  bool flag() { return (byte() & 1) != 0; }
  std::uint32_t u32() {
    std::uint32_t value = 0;
    for (int i = 0; i < 4; ++i) value |= static_cast<std::uint32_t>(byte()) << (8 * i);
    return value;
  }
  std::uint64_t u64() { return (static_cast<std::uint64_t>(u32()) << 32) | u32(); }
  // An integer in [lowest, highest], both small.
  int int_in(int lowest, int highest) {
    return lowest + static_cast<int>(byte() % static_cast<unsigned>(highest - lowest + 1));
  }
  // A size for one side of a matrix: 0 to kMaxDim.
  int dim() { return int_in(0, kMaxDim); }
  // `usual` most of the time, any size now and then: shapes that fit and shapes that do not.
  int dim_like(int usual) { return byte() < 224 ? usual : dim(); }

  // A number: mostly small multiples of 1/16, else an awkward value or four raw bytes.
  float number() {
    static const float kAwkward[] = {0.0f,
                                     -0.0f,
                                     1.0f,
                                     -1.0f,
                                     88.0f,
                                     -88.0f,
                                     1e30f,
                                     -1e30f,
                                     std::numeric_limits<float>::max(),
                                     std::numeric_limits<float>::lowest(),
                                     std::numeric_limits<float>::min(),
                                     std::numeric_limits<float>::denorm_min(),
                                     std::numeric_limits<float>::infinity(),
                                     -std::numeric_limits<float>::infinity(),
                                     std::numeric_limits<float>::quiet_NaN(),
                                     1e-30f};
    const std::uint8_t kind = byte();
    if (kind < 192) return (static_cast<float>(kind) - 96.0f) / 16.0f;
    if (kind < 240) return kAwkward[kind % (sizeof kAwkward / sizeof kAwkward[0])];
    const std::uint32_t bits = u32();
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }

  Matrix matrix(int rows, int cols) {
    Matrix m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = number();
    return m;
  }
  template <typename T>
  MatrixT<T> matrix_t(int rows, int cols) {
    MatrixT<T> m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<T>(number());
    return m;
  }
  Vector vector(int n) {
    Vector v(n);
    for (Eigen::Index i = 0; i < n; ++i) v[i] = number();
    return v;
  }
  // Empty, or n flags (some padded), or now and then a list of the wrong length.
  attn::KeyPadding padding(int n) {
    const std::uint8_t kind = byte() % 4;
    if (kind == 0) return {};
    const int length = kind == 3 ? dim() : n;
    attn::KeyPadding flags(static_cast<std::size_t>(length));
    for (auto& f : flags) f = byte() % 3 == 0 ? 1 : 0;
    return flags;
  }
  std::string text(std::size_t longest) {
    const std::size_t length = byte() % (longest + 1);
    std::string out;
    for (std::size_t i = 0; i < length; ++i) out += static_cast<char>(byte());
    return out;
  }
  // Every byte not read yet.
  std::vector<std::uint8_t> rest() {
    std::vector<std::uint8_t> out(data_ + at_, data_ + size_);
    at_ = size_;
    return out;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

attn::AttentionOptions attention_options(FuzzInput& in, int n_k) {
  attn::AttentionOptions options;
  options.scale = in.flag();
  options.causal = in.flag();
  options.temperature = in.flag() ? 1.0f : in.number();
  options.key_padding = in.padding(n_k);
  return options;
}

void fuzz_softmax(FuzzInput& in) {
  const int rows = in.dim(), cols = in.dim();
  const Matrix x = in.matrix(rows, cols);
  attn::softmax_rows(x, in.flag() ? 1.0f : in.number());
}

// The trace and the kernel over raw buffers, with every flag.
void fuzz_attention(FuzzInput& in) {
  const int n_q = in.dim(), n_k = in.dim(), d_k = in.dim(), d_v = in.dim();
  const Matrix q = in.matrix(n_q, d_k);
  const Matrix k = in.matrix(in.dim_like(n_k), in.dim_like(d_k));
  const Matrix v = in.matrix(in.dim_like(n_k), d_v);
  const attn::AttentionOptions options = attention_options(in, static_cast<int>(k.rows()));
  switch (in.byte() % 3) {
    case 0:
      attn::scaled_dot_product_attention(q, k, v, options);
      break;
    case 1: {
      // The raw kernel over buffers that fit the sizes it is given (sizes may be 0 or negative).
      const attn::AttentionSizes sizes{in.int_in(-1, kMaxDim), in.int_in(-1, kMaxDim),
                                       in.int_in(-1, kMaxDim), in.int_in(-1, kMaxDim)};
      const auto count = [](int a, int b) {
        return static_cast<std::size_t>(std::max(a, 0)) * static_cast<std::size_t>(std::max(b, 0));
      };
      std::vector<float> qs(count(sizes.n_q, sizes.d_k)), ks(count(sizes.n_k, sizes.d_k)),
          vs(count(sizes.n_k, sizes.d_v));
      for (auto* buffer : {&qs, &ks, &vs}) {
        for (float& x : *buffer) x = in.number();
      }
      const std::size_t grid = count(sizes.n_q, sizes.n_k);
      std::vector<float> scores(grid), scaled(grid), masked(grid), weights(grid);
      std::vector<float> output(count(sizes.n_q, sizes.d_v)),
          scratch(attn::attention_scratch_size(sizes));
      const attn::AttentionBuffers buffers{qs.data(),      ks.data(),     vs.data(),
                                           scores.data(),  scaled.data(), masked.data(),
                                           weights.data(), output.data(), scratch.data()};
      const attn::AttentionOptions options = attention_options(in, std::max(sizes.n_k, 0));
      attn::attention_kernel(buffers, sizes, options);
      // It returned: the same call without the trace must give the same weights and output.
      std::vector<float> lean_weights(grid), lean_output(output.size());
      const attn::AttentionBuffers lean{
          qs.data(), ks.data(),           vs.data(),          nullptr,       nullptr,
          nullptr,   lean_weights.data(), lean_output.data(), scratch.data()};
      attn::attention_kernel(lean, sizes, options);
      if (std::memcmp(lean_weights.data(), weights.data(), grid * sizeof(float)) != 0 ||
          std::memcmp(lean_output.data(), output.data(), output.size() * sizeof(float)) != 0) {
        __builtin_trap();
      }
      break;
    }
    default:
      attn::check_attention_inputs("fuzz", q, k, v, options);
  }
}

void fuzz_scoring(FuzzInput& in) {
  const int n = in.dim(), d_s = in.dim(), d_h = in.dim(), d_a = in.dim();
  const Vector s = in.vector(d_s);
  const Matrix h = in.matrix(n, d_h);
  switch (in.byte() % 3) {
    case 0: {
      const Matrix w_s = in.matrix(in.dim_like(d_a), in.dim_like(d_s));
      const Matrix w_h = in.matrix(in.dim_like(d_a), in.dim_like(d_h));
      attn::additive_score(s, h, w_s, w_h, in.vector(d_a));
      break;
    }
    case 1:
      attn::dot_score(s, h);
      break;
    default:
      attn::general_score(s, h, in.matrix(in.dim_like(d_s), in.dim_like(d_h)));
  }
}

void fuzz_multi_head(FuzzInput& in) {
  const int n_q = in.dim(), n_k = in.dim(), d_model = in.dim();
  const int heads = in.int_in(-1, kMaxDim);
  const Matrix x_q = in.matrix(n_q, d_model);
  const Matrix x_kv = in.flag() ? x_q : in.matrix(n_k, in.dim_like(d_model));
  attn::MultiHeadWeights weights;
  for (Matrix* w : {&weights.w_q, &weights.w_k, &weights.w_v, &weights.w_o}) {
    *w = in.matrix(in.dim_like(d_model), in.dim_like(d_model));
  }
  for (Vector* b : {&weights.b_q, &weights.b_k, &weights.b_v, &weights.b_o}) {
    *b = in.flag() ? Vector() : in.vector(in.dim_like(d_model));
  }
  attn::MultiHeadOptions options;
  options.causal = in.flag();
  options.key_padding = in.padding(static_cast<int>(x_kv.rows()));
  attn::multi_head_attention(x_q, x_kv, heads, weights, options);
}

void fuzz_positional_and_random(FuzzInput& in) {
  int rows = in.int_in(-2, 40), cols = in.int_in(-2, 40);
  if (in.byte() >= 240) {
    // Any sizes at all, as long as the call is quick: small, or too large to be accepted.
    rows = static_cast<int>(in.u32());
    cols = static_cast<int>(in.u32());
    const long long values = static_cast<long long>(rows) * cols;
    if (rows > 0 && cols > 0 && values > 4096 && values <= (1LL << 26)) return;
  }
  switch (in.byte() % 5) {
    case 0:
      attn::positional_encoding(rows, cols);
      break;
    case 1:
      attn::glorot_uniform(rows, cols, in.u64());
      break;
    case 2:
      attn::unit_normal(rows, cols, in.u64());
      break;
    case 3: {
      attn::Rng rng(in.u64());
      for (int i = 0; i < 8; ++i) (void)(rng.next_u32() + rng.uniform() + rng.unit_normal());
      break;
    }
    default: {
      const double x = in.flag() ? static_cast<double>(in.number()) : std::ldexp(in.u32(), -16);
      if (x > 0) attn::portable_log(x);  // defined for x > 0 only
    }
  }
}

// A word-vector file: as raw bytes, or a header built from its fields so that the fuzzer gets
// past the magic and the size check to the vocabulary and the scales. Then lookups and embedding.
void fuzz_embeddings(FuzzInput& in) {
  std::vector<std::uint8_t> file;
  if (in.flag()) {
    file = in.rest();
  } else {
    const std::uint32_t count = in.int_in(0, 5), dim = in.int_in(0, 5);
    std::vector<std::uint8_t> vocabulary;
    for (std::uint32_t i = 0; i < count + in.int_in(0, 1); ++i) {
      const std::string word = in.text(4);
      vocabulary.insert(vocabulary.end(), word.begin(), word.end());
      if (in.byte() < 240) vocabulary.push_back('\n');
    }
    const auto put_u32 = [&file](std::uint32_t value) {
      for (int i = 0; i < 4; ++i) file.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
    };
    file.assign(attn::kEmbeddingsMagic.begin(), attn::kEmbeddingsMagic.end());
    put_u32(in.byte() < 250 ? attn::kEmbeddingsVersion : in.u32());
    put_u32(count);
    put_u32(dim);
    put_u32(static_cast<std::uint32_t>(vocabulary.size()));
    file.insert(file.end(), vocabulary.begin(), vocabulary.end());
    while (file.size() % 4 != 0) file.push_back(0);
    for (std::uint32_t i = 0; i < count; ++i) {
      const float scale = in.flag() ? 0.01f : in.number();
      std::uint32_t bits;
      std::memcpy(&bits, &scale, sizeof bits);
      put_u32(bits);
    }
    for (std::uint32_t i = 0; i < count * dim; ++i) file.push_back(in.byte());
    for (int extra = in.int_in(-1, 1); extra > 0; --extra) file.push_back(0);
    if (in.byte() >= 250 && !file.empty()) file.pop_back();
  }
  const attn::Embeddings embeddings = attn::Embeddings::parse(file.data(), file.size());
  std::vector<std::string> tokens;
  for (int i = in.int_in(0, 4); i > 0; --i) {
    tokens.push_back(in.flag() && embeddings.size() > 0
                         ? embeddings.vocabulary().word(in.byte() % embeddings.size())
                         : in.text(6));
  }
  for (const std::string& token : tokens) {
    embeddings.lookup(token);
    embeddings.vocabulary().contains(token);
  }
  embeddings.embed(tokens);
}

void fuzz_vocabulary(FuzzInput& in) {
  std::vector<std::string> words;
  for (int i = in.int_in(0, 6); i > 0; --i) words.push_back(in.text(3));
  const attn::Vocabulary vocabulary(words);
  for (const std::string& word : words) vocabulary.index_of(word);
  attn::fnv1a32(in.text(8));
}

template <typename T>
void fuzz_layers(FuzzInput& in) {
  const int n = in.dim(), d_in = in.dim(), d_out = in.dim();
  attn::Parameter<T> w("w", in.matrix_t<T>(in.dim_like(d_in), d_out));
  attn::Parameter<T> b("b", in.matrix_t<T>(in.dim_like(1), in.dim_like(d_out)));
  const bool bias = in.flag();
  switch (in.byte() % 3) {
    case 0: {
      const attn::LinearPass<T> pass =
          attn::linear_forward(in.matrix_t<T>(n, d_in), w, bias ? &b : nullptr);
      attn::linear_backward(pass, in.matrix_t<T>(in.dim_like(n), in.dim_like(d_out)), w,
                            bias ? &b : nullptr);
      break;
    }
    case 1: {
      const attn::TanhPass<T> pass = attn::tanh_forward(in.matrix_t<T>(n, d_in));
      attn::tanh_backward(pass, in.matrix_t<T>(in.dim_like(n), in.dim_like(d_in)));
      break;
    }
    default: {
      attn::Parameter<T> table("table", in.matrix_t<T>(in.dim(), d_out));
      std::vector<int> ids(static_cast<std::size_t>(n));
      for (int& id : ids) id = in.int_in(-1, kMaxDim);
      const int padding = in.int_in(-1, 1);
      const attn::EmbeddingPass<T> pass = attn::embedding_forward(ids, table, padding);
      attn::embedding_backward(pass, in.matrix_t<T>(in.dim_like(n), in.dim_like(d_out)), table,
                               padding);
    }
  }
}

template <typename T>
void fuzz_attention_grad(FuzzInput& in) {
  if (in.flag()) {
    const int rows = in.dim(), cols = in.dim();
    MatrixT<T> x = in.matrix_t<T>(rows, cols);
    const MatrixT<T> weights = attn::softmax_rows_forward(x);
    attn::softmax_rows_backward(weights, in.matrix_t<T>(in.dim_like(rows), in.dim_like(cols)));
    return;
  }
  const int n_q = in.dim(), n_k = in.dim(), d_k = in.dim(), d_v = in.dim();
  attn::AttentionGradOptions options;
  options.scoring = static_cast<attn::Scoring>(in.int_in(0, 2));
  options.causal = in.flag();
  options.key_padding = in.padding(n_k);
  attn::Parameter<T> w("w", in.matrix_t<T>(in.dim_like(1), in.dim_like(d_k)));
  const bool with_w = in.byte() % 4 != 0 ? options.scoring == attn::Scoring::additive : in.flag();
  const attn::AttentionPass<T> pass = attn::attention_forward<T>(
      in.matrix_t<T>(n_q, d_k), in.matrix_t<T>(in.dim_like(n_k), in.dim_like(d_k)),
      in.matrix_t<T>(in.dim_like(n_k), d_v), options, with_w ? &w : nullptr);
  attn::attention_backward(pass, in.matrix_t<T>(in.dim_like(n_q), in.dim_like(d_v)),
                           with_w ? &w : nullptr);
}

template <typename T>
void fuzz_loss(FuzzInput& in) {
  const int n = in.dim(), classes = in.dim();
  const MatrixT<T> logits = in.matrix_t<T>(n, classes);
  std::vector<int> targets(static_cast<std::size_t>(in.dim_like(n)));
  for (int& target : targets) target = in.int_in(-2, kMaxDim);
  attn::softmax_cross_entropy(logits, targets);
}

void fuzz_adam(FuzzInput& in) {
  std::vector<attn::Parameter<float>> parameters;
  for (int i = in.int_in(0, 3); i > 0; --i) {
    parameters.emplace_back("p", in.matrix_t<float>(in.dim(), in.dim()));
    parameters.back().grad = in.matrix_t<float>(static_cast<int>(parameters.back().value.rows()),
                                                static_cast<int>(parameters.back().value.cols()));
  }
  std::vector<attn::Parameter<float>*> pointers;
  for (auto& parameter : parameters) pointers.push_back(&parameter);
  if (in.byte() >= 250) pointers.push_back(nullptr);
  if (in.flag()) {
    attn::clip_global_norm(pointers, in.number());
    return;
  }
  attn::AdamOptions options;
  if (in.flag()) {
    options.learning_rate = in.number();
    options.beta1 = in.number();
    options.beta2 = in.number();
    options.epsilon = in.number();
  }
  attn::Adam<float> adam(pointers, options);
  if (in.flag() && !parameters.empty()) {
    parameters.front().value = in.matrix_t<float>(in.dim(), in.dim());  // a shape change
  }
  for (int i = in.int_in(0, 3); i > 0; --i) adam.step();
}

void fuzz_reversal_batch(FuzzInput& in) {
  attn::Rng rng(in.u64());
  const int batch = in.int_in(-1, 4), vocab = in.int_in(-1, 9);
  const int min_length = in.int_in(-1, 34), max_length = in.int_in(-1, 34);
  const attn::ReversalBatch drawn =
      in.flag() ? attn::draw_reversal_batch(rng, batch, vocab, min_length, max_length)
                : attn::draw_reversal_batch(rng, batch, vocab, min_length);
  for (int b = 0; b < drawn.size; ++b) drawn.padding_of(b);
  attn::derive_seed(in.u64(), in.u64());
}

// A batch as draw_reversal_batch makes it, or one put together by hand that need not hold
// together (lengths, sizes and symbols of any value).
attn::ReversalBatch some_batch(FuzzInput& in, int vocab) {
  attn::Rng rng(in.u64());
  if (in.flag()) {
    const int min_length = in.int_in(1, 6);
    return attn::draw_reversal_batch(rng, in.int_in(1, 3), vocab, min_length,
                                     min_length + in.int_in(0, 3));
  }
  attn::ReversalBatch batch;
  batch.size = in.int_in(-1, 3);
  batch.max_length = in.int_in(-1, 34);
  for (int b = in.dim_like(batch.size); b > 0; --b) batch.lengths.push_back(in.int_in(-1, 34));
  const int cells = std::max(batch.size, 0) * std::max(batch.max_length, 0);
  for (int i = in.dim_like(cells); i > 0; --i) batch.inputs.push_back(in.int_in(-1, vocab + 1));
  for (int i = in.dim_like(cells); i > 0; --i) batch.targets.push_back(in.int_in(-1, vocab + 1));
  return batch;
}

void fuzz_seq2seq(FuzzInput& in) {
  attn::ModelOptions options;
  options.kind = static_cast<attn::Bridge>(in.int_in(0, 1));
  options.scoring = static_cast<attn::Scoring>(in.int_in(0, 2));
  options.d_model = in.int_in(1, kMaxDim);
  options.d_k = in.int_in(0, kMaxDim);
  options.vocab = in.int_in(1, 9);
  options.seed = in.u64();
  attn::Seq2Seq<float> model(options);
  const attn::ReversalBatch batch = some_batch(in, options.vocab);
  if (in.byte() < 32) {
    batch.padding_of(in.int_in(-1, 3));
    return;
  }
  const attn::Seq2SeqPass<float> pass = model.forward(batch);
  model.zero_grad();
  model.backward(pass);
}

void fuzz_trainer(FuzzInput& in) {
  attn::TrainingOptions options;
  options.model = static_cast<attn::Bridge>(in.int_in(0, 2));
  options.scoring = static_cast<attn::Scoring>(in.int_in(0, 3));
  options.d_model = in.int_in(1, kMaxDim);
  options.d_k = in.int_in(-1, kMaxDim);
  options.vocab = in.int_in(1, 9);
  options.min_length = in.int_in(0, 6);
  options.max_length = in.int_in(0, 8);
  options.batch = in.int_in(0, 3);
  if (in.flag()) options.learning_rate = in.number();
  if (in.flag()) options.clip = in.number();
  options.seed = in.u64();
  attn::Trainer trainer(options);
  switch (in.byte() % 3) {
    case 0:
      trainer.step(in.int_in(-1, 2));
      break;
    case 1: {
      std::vector<int> lengths;
      for (int i = in.int_in(0, 3); i > 0; --i) lengths.push_back(in.int_in(-1, 34));
      trainer.evaluate(lengths, in.int_in(-1, 2));
      break;
    }
    default:
      trainer.attention_map(in.int_in(-1, 34));
  }
}

void fuzz_experiments(FuzzInput& in) {
  if (in.flag()) {
    attn::BottleneckOptions options;
    options.counts.clear();
    for (int i = in.int_in(0, 4); i > 0; --i) options.counts.push_back(in.int_in(-1, 40));
    options.width = in.int_in(-1, 12);
    options.codebook = in.int_in(-1, 12);
    options.trials = in.int_in(-1, 3);
    options.seed = in.u64();
    attn::bottleneck_experiment(options);
    return;
  }
  attn::ScalingOptions options;
  options.d_k = in.int_in(-1, 16);
  options.samples = in.int_in(-1, 40);
  options.keys = in.int_in(-1, 12);
  options.trials = in.int_in(-1, 5);
  options.seed = in.u64();
  attn::scaling_experiment(options);
}

// The language model's training: its batches, one or two steps of a tiny model, the heads'
// measurement material, and the vocabulary cuts, from options, samples and word vectors of any
// value (ids out of range, empty samples, non-finite vectors included).
void fuzz_lm_training(FuzzInput& in) {
  attn::LanguageModelTrainingOptions options;
  options.steps = in.int_in(-1, 3);
  options.batch = in.int_in(-1, 3);
  if (in.flag()) options.learning_rate = in.number();
  options.warmup = in.int_in(-1, 3);
  if (in.flag()) options.final_lr_fraction = in.number();
  if (in.flag()) options.clip = in.number();
  if (in.flag()) options.repeat_fraction = in.number();
  options.min_run = in.int_in(-1, 6);
  options.max_run = in.int_in(-1, 6);
  options.repeat_text = in.flag();
  options.seed = in.u64();
  const int words = in.int_in(1, 9);
  const int context = in.int_in(1, 6);
  std::vector<std::vector<int>> samples(static_cast<std::size_t>(in.int_in(0, 3)));
  for (std::vector<int>& sample : samples) {
    for (int i = in.int_in(0, 10); i > 0; --i) sample.push_back(in.int_in(-1, words + 1));
  }
  switch (in.byte() % 4) {
    case 0: {
      attn::LanguageModelBatches batches(samples, context, words, options);
      std::vector<std::vector<int>> inputs, targets;
      batches.next(inputs, targets);
      return;
    }
    case 1: {
      attn::LanguageModelConfig config;
      config.vocab = words + 1;
      config.d_embed = in.int_in(1, 4);
      config.d_model = in.int_in(1, kMaxDim);
      config.layers = in.int_in(1, 2);
      config.heads = in.int_in(1, 4);
      config.d_mlp = in.int_in(1, kMaxDim);
      config.context = context;
      config.seed = in.u64();
      const int rows = in.dim_like(config.vocab);
      attn::LanguageModelTraining training(
          config, in.matrix_t<float>(rows, in.dim_like(config.d_embed)), samples, options);
      for (int i = in.int_in(1, 2); i > 0; --i) training.step();
      return;
    }
    case 2:
      attn::head_measurement(samples, context + in.int_in(0, 4), words, in.int_in(-1, 3), in.u64(),
                             in.int_in(-1, 4));
      return;
    default: {
      attn::keep_first_words(samples, words);
      const int rows = in.int_in(0, kMaxDim);
      attn::first_word_vectors(in.matrix_t<float>(rows, in.int_in(1, 4)), in.int_in(-1, rows + 1));
    }
  }
}

// The GRU, the translation models (forward, backward, greedy translation and a training step),
// their corpus file and the weights file read as the translators' and as the language model's,
// from shapes, ids and bytes of any value.
void fuzz_translation(FuzzInput& in) {
  switch (in.byte() % 5) {
    case 0: {
      const int batch = in.int_in(0, 3), width = in.int_in(0, 4), state = in.int_in(0, 4);
      attn::GruParameters<float> p =
          attn::make_gru_parameters<float>("g", in.dim_like(width), in.dim_like(state), in.u64());
      if (in.flag()) {
        std::vector<unsigned char> active;
        for (int i = in.dim_like(batch); i > 0; --i) active.push_back(in.byte() & 1);
        const auto pass =
            attn::gru_step_forward(in.matrix_t<float>(batch, in.dim_like(3 * state)),
                                   in.matrix_t<float>(batch, in.dim_like(state)), p, active);
        MatrixT<float> d_gx;
        attn::gru_step_backward(pass, in.matrix_t<float>(batch, in.dim_like(state)), p, &d_gx);
        return;
      }
      std::vector<int> lengths;
      for (int i = in.dim_like(batch); i > 0; --i) lengths.push_back(in.int_in(-1, 4));
      const int steps = in.int_in(0, 4);
      const auto pass = attn::gru_sequence_forward(
          in.matrix_t<float>(in.dim_like(steps * batch), in.dim_like(width)), lengths, in.flag(), p,
          in.matrix_t<float>(in.dim_like(batch), in.dim_like(state)));
      attn::gru_sequence_backward<float>(pass, in.matrix_t<float>(steps * batch, state),
                                         in.matrix_t<float>(batch, in.dim_like(state)), p, nullptr);
      return;
    }
    case 1:
    case 2: {
      attn::TranslatorConfig config;
      config.bridge = in.flag() ? attn::Bridge::attention : attn::Bridge::fixed_vector;
      config.source_words = in.int_in(-1, 6);
      config.source_width = in.int_in(0, 4);
      config.target_words = in.int_in(3, 9);
      config.target_width = in.int_in(0, 4);
      config.encoder_state = in.int_in(0, 4);
      config.decoder_state = in.int_in(0, 4);
      config.attention = in.int_in(0, 4);
      config.seed = in.u64();
      attn::Translator<float> model(
          config, in.matrix_t<float>(in.dim_like(std::max(config.source_words, 0)),
                                     in.dim_like(config.source_width)));
      attn::TranslationBatch batch;
      for (int b = in.int_in(0, 3); b > 0; --b) {
        std::vector<int> source, target;
        for (int i = in.int_in(0, 5); i > 0; --i) source.push_back(in.int_in(-1, 8));
        for (int i = in.int_in(0, 5); i > 0; --i) target.push_back(in.int_in(-1, 10));
        batch.sources.push_back(source);
        batch.targets.push_back(target);
      }
      if (in.flag() && !batch.targets.empty()) batch.targets.pop_back();
      if (in.flag()) {
        // A beam of any width, 0 and 17 (refused) included.
        model.translate(batch.sources.empty() ? std::vector<int>{} : batch.sources.front(),
                        in.int_in(-1, 6), in.int_in(0, 17));
        return;
      }
      if (in.flag()) {
        // The page's way: a model of given weights (some of the wrong number or shape), frozen.
        std::vector<MatrixT<float>> values;
        for (attn::Parameter<float>* p : model.parameters()) values.push_back(p->value);
        if (in.flag() && !values.empty()) values.pop_back();
        if (in.flag() && !values.empty()) values.back() = in.matrix_t<float>(1, 2);
        const attn::FrozenTranslator<float> frozen(attn::Translator<float>::from_weights(
            config, std::make_shared<const MatrixT<float>>(model.word_vectors()), values));
        frozen.translate(batch.sources.empty() ? std::vector<int>{} : batch.sources.front(),
                         in.int_in(-1, 6), in.int_in(0, 17));
        return;
      }
      if (in.flag()) {
        std::vector<attn::SentencePair> pairs;
        for (std::size_t b = 0; b < batch.sources.size() && b < batch.targets.size(); ++b) {
          pairs.push_back({0, batch.sources[b], batch.targets[b]});
        }
        attn::TranslatorTrainingOptions options;
        options.steps = in.int_in(-1, 3);
        options.batch = in.int_in(-1, 3);
        if (in.flag()) options.learning_rate = in.number();
        if (in.flag()) options.clip = in.number();
        attn::TranslatorTraining training(config, model.word_vectors(), pairs, options);
        training.step();
        return;
      }
      const attn::TranslatorPass<float> pass = model.forward(batch);
      model.zero_grad();
      model.backward(pass);
      return;
    }
    case 3: {
      const std::vector<std::uint8_t> bytes = in.rest();
      attn::parse_translation_pairs(bytes.data(), bytes.size());
      return;
    }
    default: {
      // The weights file, read as each model's file: the container's checks, then the model's.
      const bool translators = in.flag();
      const std::vector<std::uint8_t> bytes = in.rest();
      if (!translators) {
        attn::LanguageModelWeights w =
            attn::parse_language_model_weights(bytes.data(), bytes.size());
        const attn::LanguageModelConfig c = w.config;
        if (c.vocab * c.d_embed <= 64) {
          attn::make_language_model(std::move(w), MatrixT<float>::Ones(c.vocab, c.d_embed))
              .forward({0});
        }
        return;
      }
      const attn::TranslatorWeights w = attn::parse_translators(bytes.data(), bytes.size());
      if (w.config.source_words * w.config.source_width <= 64) {
        attn::make_translator(w, w.models.front().bridge,
                              MatrixT<float>::Zero(w.config.source_words, w.config.source_width))
            .translate({0}, 3);
      }
    }
  }
}

// The Transformer translator: models of any sizes (heads that do not divide d_model, no layers)
// with their norms in either place, word vectors of any shape and value, batches of any ids, beams
// of any width, a training step with dropout and label smoothing, given weights of any number and
// shape, and any bytes read as its weights file.
void fuzz_transformer(FuzzInput& in) {
  const int kind = in.byte() % 3;
  if (kind == 2) {
    const std::vector<std::uint8_t> bytes = in.rest();
    const attn::TransformerTranslatorWeights w =
        attn::parse_transformer_translator(bytes.data(), bytes.size());
    const attn::TransformerTranslatorConfig& c = w.config;
    if (c.source_words * c.source_width <= 64 && c.d_model <= 64 && c.target_words <= 64) {
      attn::make_transformer_translator(w,
                                        std::make_shared<const MatrixT<float>>(
                                            MatrixT<float>::Zero(c.source_words, c.source_width)))
          .translate({0}, 3, 2);
    }
    return;
  }
  attn::TransformerTranslatorConfig config;
  config.source_words = in.int_in(-1, 6);
  config.source_width = in.int_in(0, 4);
  config.target_words = in.int_in(3, 9);
  config.d_model = in.int_in(0, 8);
  config.heads = in.int_in(0, 4);
  config.encoder_layers = in.int_in(0, 2);
  config.decoder_layers = in.int_in(0, 2);
  config.d_mlp = in.int_in(0, 4);
  config.seed = in.u64();
  config.norm_place = in.flag() ? attn::NormPlace::post : attn::NormPlace::pre;
  attn::TransformerTranslator<float> model(
      config, in.matrix_t<float>(in.dim_like(std::max(config.source_words, 0)),
                                 in.dim_like(config.source_width)));
  attn::TranslationBatch batch;
  for (int b = in.int_in(0, 3); b > 0; --b) {
    std::vector<int> source, target;
    for (int i = in.int_in(0, 5); i > 0; --i) source.push_back(in.int_in(-1, 8));
    for (int i = in.int_in(0, 5); i > 0; --i) target.push_back(in.int_in(-1, 10));
    batch.sources.push_back(source);
    batch.targets.push_back(target);
  }
  if (in.flag() && !batch.targets.empty()) batch.targets.pop_back();
  const std::vector<int> first = batch.sources.empty() ? std::vector<int>{} : batch.sources.front();
  switch (in.byte() % 4) {
    case 0:
      // A beam of any width, 0 and 17 (refused) included.
      model.translate(first, in.int_in(-1, 6), in.int_in(0, 17));
      return;
    case 1: {
      // A model of given weights, some of the wrong number or shape.
      std::vector<MatrixT<float>> values;
      for (attn::Parameter<float>* p : model.parameters()) values.push_back(p->value);
      if (in.flag() && !values.empty()) values.pop_back();
      if (in.flag() && !values.empty()) values.back() = in.matrix_t<float>(1, 2);
      attn::TransformerTranslator<float>::from_weights(
          config, std::make_shared<const MatrixT<float>>(model.word_vectors()), values)
          .logits(first, batch.targets.empty() ? std::vector<int>{} : batch.targets.front());
      return;
    }
    case 2: {
      std::vector<attn::SentencePair> pairs;
      for (std::size_t b = 0; b < batch.sources.size() && b < batch.targets.size(); ++b) {
        pairs.push_back({0, batch.sources[b], batch.targets[b]});
      }
      attn::TransformerTrainingOptions options;
      options.steps = in.int_in(-1, 3);
      options.batch = in.int_in(-1, 3);
      options.dropout = in.flag() ? 0.0 : in.number();
      options.label_smoothing = in.flag() ? 0.0 : in.number();
      if (in.flag()) options.learning_rate = in.number();
      attn::TransformerTraining training(config, model.word_vectors(), pairs, options);
      training.step();
      return;
    }
    default: {
      attn::Rng rng(in.u64());
      const auto pass =
          model.forward(batch, in.flag() ? 0.0 : in.number(), &rng, in.flag() ? 0.0 : in.number());
      model.zero_grad();
      model.backward(pass);
    }
  }
}

void run(FuzzInput& in) {
  switch (in.byte() % 16) {
    case 0:
      return fuzz_softmax(in);
    case 1:
      return fuzz_attention(in);
    case 2:
      return fuzz_scoring(in);
    case 3:
      return fuzz_multi_head(in);
    case 4:
      return fuzz_positional_and_random(in);
    case 5:
      return fuzz_embeddings(in);
    case 6:
      return fuzz_vocabulary(in);
    case 7:
      return fuzz_layers<float>(in);
    case 8:
      return fuzz_layers<double>(in);
    case 9:
      return fuzz_attention_grad<float>(in);
    case 10:
      return fuzz_attention_grad<double>(in);
    case 11:
      return in.flag() ? fuzz_loss<float>(in) : fuzz_loss<double>(in);
    case 12:
      return fuzz_adam(in);
    case 13:
      return fuzz_reversal_batch(in);
    case 14:
      return fuzz_seq2seq(in);
    default:
      switch (in.byte() % 5) {
        case 0:
          return fuzz_trainer(in);
        case 1:
          return fuzz_experiments(in);
        case 2:
          return fuzz_lm_training(in);
        case 3:
          return fuzz_translation(in);
        default:
          return fuzz_transformer(in);
      }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  try {
    run(in);
  } catch (const attn::InvalidArgument&) {
    // The one way to refuse an input.
  } catch (const std::exception& error) {
    std::fprintf(stderr, "finding: an exception other than attn::InvalidArgument: %s\n",
                 error.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "finding: something other than an exception was thrown\n");
    std::abort();
  }
  return 0;
}

// The embind surface of the core: check and convert the arguments, call, convert the results.
// web/src/engine/ wraps these raw functions into the camelCase facade that the page uses.
#include <emscripten/bind.h>
#include <malloc.h>

#include <algorithm>
#include <cstdint>
#include <memory>

#include "attn/attention.hpp"
#include "attn/bottleneck.hpp"
#include "attn/embeddings.hpp"
#include "attn/multi_head.hpp"
#include "attn/positional.hpp"
#include "attn/random.hpp"
#include "attn/scaling_experiment.hpp"
#include "attn/scoring.hpp"
#include "attn/softmax.hpp"
#include "convert.hpp"
#include "loaded_embeddings.hpp"

namespace attn::bindings {

std::shared_ptr<const Embeddings>& loaded_embeddings() {
  static std::shared_ptr<const Embeddings> embeddings;
  return embeddings;
}

namespace {

// x: (rows, cols) -> (rows, cols)
val softmax(const val& x, int rows, int cols, float temperature) {
  return guarded([&] {
    return float32_array(softmax_rows(matrix_from(x, rows, cols, "softmax", "x"), temperature));
  });
}

// Above this many values in one matrix the call is refused rather than left to fail on memory.
constexpr std::uint64_t kMaxValues = std::uint64_t{1} << 26;

void check_sizes(int n_q, int n_k, int d_k, int d_v) {
  const auto describe = [&] {
    return "n_q=" + std::to_string(n_q) + ", n_k=" + std::to_string(n_k) +
           ", d_k=" + std::to_string(d_k) + ", d_v=" + std::to_string(d_v);
  };
  if (n_q < 1 || n_k < 1 || d_k < 1 || d_v < 1) {
    throw InvalidArgument("attention: every size must be at least 1, got " + describe());
  }
  const std::uint64_t largest =
      std::max({std::uint64_t(n_q) * n_k, std::uint64_t(n_q) * d_k, std::uint64_t(n_k) * d_k,
                std::uint64_t(n_k) * d_v, std::uint64_t(n_q) * d_v});
  if (largest > kMaxValues) {
    throw InvalidArgument("attention: the inputs are too large (" + describe() + ")");
  }
}

// The attention call's buffers in wasm memory, kept from call to call: the facade writes the
// inputs straight into them and copies the results out in one piece, so that a call converts no
// value one at a time and, for the sizes of the call before, allocates nothing.
struct AttentionMemory {
  std::vector<float> q, k, v, results, scratch;
  std::vector<std::uint8_t> padding;
  int n_q = 0, n_k = 0, d_k = 0, d_v = 0;
};

AttentionMemory& attention_memory() {
  static AttentionMemory memory;
  return memory;
}

double address_of(const void* p) {
  return static_cast<double>(reinterpret_cast<std::uintptr_t>(p));
}

// -> { q, k, v, padding, results }: the byte addresses of buffers for these sizes, valid until
// the next call. q: (nq, dk), k: (nk, dk), v: (nk, dv) float32; padding: nk bytes, non-zero =
// padded key; results: weights (nq, nk) and output (nq, dv), then with the trace scores, scaled
// and masked (nq, nk) each, one after the other.
val attention_buffers(int n_q, int n_k, int d_k, int d_v) {
  return guarded([&] {
    check_sizes(n_q, n_k, d_k, d_v);
    AttentionMemory& m = attention_memory();
    m.n_q = m.n_k = m.d_k = m.d_v = 0;  // none, should a resize below throw
    const auto area = [](int rows, int cols) { return std::size_t(rows) * std::size_t(cols); };
    m.q.resize(area(n_q, d_k));
    m.k.resize(area(n_k, d_k));
    m.v.resize(area(n_k, d_v));
    m.padding.resize(n_k);
    m.results.resize(4 * area(n_q, n_k) + area(n_q, d_v));
    m.scratch.resize(attention_scratch_size({n_q, n_k, d_k, d_v}));
    m.n_q = n_q, m.n_k = n_k, m.d_k = d_k, m.d_v = d_v;
    val out = val::object();
    out.set("q", address_of(m.q.data()));
    out.set("k", address_of(m.k.data()));
    out.set("v", address_of(m.v.data()));
    out.set("padding", address_of(m.padding.data()));
    out.set("results", address_of(m.results.data()));
    return out;
  });
}

// Attention over the inputs the facade wrote into the buffers of the last attentionBuffers call,
// which must have had these sizes. The core checks the inputs (finiteness, masks) before it
// writes any result.
void attention(int n_q, int n_k, int d_k, int d_v, bool scale, float temperature, bool causal,
               bool has_padding, bool trace) {
  guarded([&] {
    AttentionMemory& m = attention_memory();
    if (n_q != m.n_q || n_k != m.n_k || d_k != m.d_k || d_v != m.d_v) {
      throw InvalidArgument("attention: the buffers were made for other sizes");
    }
    AttentionOptions options;
    options.scale = scale;
    options.temperature = temperature;
    options.causal = causal;
    if (has_padding) options.key_padding = m.padding;
    const std::size_t grid = std::size_t(n_q) * n_k;
    float* weights = m.results.data();
    float* traced = weights + grid + std::size_t(n_q) * d_v;
    const AttentionBuffers buffers{m.q.data(),
                                   m.k.data(),
                                   m.v.data(),
                                   trace ? traced : nullptr,
                                   trace ? traced + grid : nullptr,
                                   trace ? traced + 2 * grid : nullptr,
                                   weights,
                                   weights + grid,
                                   m.scratch.data()};
    attention_kernel(buffers, {n_q, n_k, d_k, d_v}, options);
  });
}

// s: (ds), h: (n, dh); additive: ws (da, ds), wh (da, dh), v (da); general: w (ds, dh)
// `kind` comes in as a JS value, not a std::string: embind frees the copy it makes of a string
// argument only when the function returns, so every call that throws would leak it.
val score(const val& kind_name, const val& s, const val& h, int n, int ds, int dh, const val& ws,
          const val& wh, const val& w, const val& v, int da) {
  return guarded([&] {
    if (!kind_name.isString()) throw InvalidArgument("score: kind must be a string");
    const std::string kind = kind_name.as<std::string>();
    const std::string where = kind + " score";
    const char* at = where.c_str();
    ScoreResult result;
    if (kind == "additive") {
      result = additive_score(vector_from(s, ds, at, "s"), matrix_from(h, n, dh, at, "h"),
                              matrix_from(ws, da, ds, at, "ws"), matrix_from(wh, da, dh, at, "wh"),
                              vector_from(v, da, at, "v"));
    } else if (kind == "dot") {
      result = dot_score(vector_from(s, ds, at, "s"), matrix_from(h, n, dh, at, "h"));
    } else if (kind == "general") {
      result = general_score(vector_from(s, ds, at, "s"), matrix_from(h, n, dh, at, "h"),
                             matrix_from(w, ds, dh, at, "w"));
    } else {
      throw InvalidArgument("score: kind must be 'additive', 'dot' or 'general', got '" + kind +
                            "'");
    }
    val out = val::object();
    out.set("scores", float32_array(result.scores));
    out.set("weights", float32_array(result.weights));
    out.set("context", float32_array(result.context));
    return out;
  });
}

// xq: (nq, d), xkv: (nk, d), every w: (d, d), every b: (d) or absent
val multi_head(const val& xq, const val& xkv, int nq, int nk, int d, int heads, const val& wq,
               const val& wk, const val& wv, const val& wo, const val& bq, const val& bk,
               const val& bv, const val& bo, bool causal, const val& key_padding) {
  return guarded([&] {
    const char* at = "multi-head attention";
    MultiHeadWeights weights{
        matrix_from(wq, d, d, at, "wq"),    matrix_from(wk, d, d, at, "wk"),
        matrix_from(wv, d, d, at, "wv"),    matrix_from(wo, d, d, at, "wo"),
        vector_from(bq, d, at, "bq", true), vector_from(bk, d, at, "bk", true),
        vector_from(bv, d, at, "bv", true), vector_from(bo, d, at, "bo", true)};
    MultiHeadOptions options{causal, padding_from(key_padding, nk, at)};
    const MultiHeadTrace trace =
        multi_head_attention(matrix_from(xq, nq, d, at, "xq"), matrix_from(xkv, nk, d, at, "xkv"),
                             heads, weights, options);
    val head_list = val::array();
    for (const HeadTrace& head : trace.heads) {
      val entry = val::object();
      entry.set("weights", float32_array(head.weights));
      entry.set("output", float32_array(head.output));
      head_list.call<void>("push", entry);
    }
    val out = val::object();
    out.set("heads", head_list);
    out.set("output", float32_array(trace.output));
    return out;
  });
}

val positional(int n, int d) {
  return guarded([&] { return float32_array(positional_encoding(n, d)); });
}

val glorot(int rows, int cols, double seed) {
  return guarded(
      [&] { return float32_array(glorot_uniform(rows, cols, static_cast<std::uint64_t>(seed))); });
}

val normal(int rows, int cols, double seed) {
  return guarded(
      [&] { return float32_array(unit_normal(rows, cols, static_cast<std::uint64_t>(seed))); });
}

val side_to_js(const ScalingSide& side) {
  val out = val::object();
  out.set("samples", float32_array(side.samples.data(), side.samples.size()));
  out.set("mean", side.mean);
  out.set("variance", side.variance);
  out.set("maxWeight", side.max_weight);
  out.set("entropy", side.entropy);
  out.set("gradientNorm", side.gradient_norm);
  return out;
}

val scaling(int d_k, int samples, int keys, int trials, double seed) {
  return guarded([&] {
    const ScalingResult result =
        scaling_experiment({d_k, samples, keys, trials, static_cast<std::uint64_t>(seed)});
    val out = val::object();
    out.set("dk", result.d_k);
    out.set("unscaled", side_to_js(result.unscaled));
    out.set("scaled", side_to_js(result.scaled));
    return out;
  });
}

// counts: whole numbers -> { counts, fixedVector: (counts), attention: (counts) }, accuracies
// from 0 to 1
val bottleneck(const val& counts, int width, int codebook, int trials, double seed) {
  return guarded([&] {
    const char* at = "bottleneck experiment";
    BottleneckOptions options;
    options.counts = ints_from(counts, at, "counts");
    options.width = width;
    options.codebook = codebook;
    options.trials = trials;
    options.seed = static_cast<std::uint64_t>(seed);
    const BottleneckResult result = bottleneck_experiment(options);
    val list = val::array();
    for (const int n : result.counts) list.call<void>("push", n);
    val out = val::object();
    out.set("counts", list);
    out.set("fixedVector", float32_array(result.fixed_vector));
    out.set("attention", float32_array(result.attention));
    return out;
  });
}

// bytes: the whole asset (a Uint8Array) -> { words, dim }. A file that does not parse leaves the
// vectors loaded before in place.
val load_embeddings(const val& bytes) {
  return guarded([&] {
    const ByteCopy copy = bytes_from(bytes, "loadEmbeddings", "the asset");
    std::shared_ptr<const Embeddings>& embeddings = loaded_embeddings();
    embeddings = std::make_shared<const Embeddings>(Embeddings::parse(copy.data(), copy.size()));
    val out = val::object();
    out.set("words", embeddings->size());
    out.set("dim", embeddings->dim());
    return out;
  });
}

// tokens: n strings -> { vectors: (n, d), known: (n) bytes, d }
val embed(const val& tokens) {
  return guarded([&] {
    const std::shared_ptr<const Embeddings>& embeddings = loaded_embeddings();
    if (!embeddings) {
      throw InvalidArgument("embed: no word vectors are loaded; call loadEmbeddings(bytes) first");
    }
    const std::vector<std::string> words = strings_from(tokens, "embed");
    const EmbeddedTokens result = embeddings->embed(words);
    val out = val::object();
    out.set("vectors", float32_array(result.vectors));
    out.set("known",
            val::global("Uint8Array")
                .new_(emscripten::typed_memory_view(result.known.size(), result.known.data())));
    out.set("d", embeddings->dim());
    return out;
  });
}

// The bytes the allocator has handed out and not had back: tests/js/memory.test.js checks that
// this stays flat over many calls. Not part of the facade.
unsigned heap_bytes_in_use() { return static_cast<unsigned>(mallinfo().uordblks); }

}  // namespace
}  // namespace attn::bindings

EMSCRIPTEN_BINDINGS(attention_core) {
  using namespace attn::bindings;
  emscripten::function("softmax", &softmax);
  emscripten::function("attentionBuffers", &attention_buffers);
  emscripten::function("attention", &attention);
  emscripten::function("score", &score);
  emscripten::function("multiHeadAttention", &multi_head);
  emscripten::function("positionalEncoding", &positional);
  emscripten::function("glorotUniform", &glorot);
  emscripten::function("unitNormal", &normal);
  emscripten::function("scalingExperiment", &scaling);
  emscripten::function("bottleneckExperiment", &bottleneck);
  emscripten::function("loadEmbeddings", &load_embeddings);
  emscripten::function("embed", &embed);
  emscripten::function("heapBytesInUse", &heap_bytes_in_use);
}

#include "workspace.hpp"

#include <emscripten/emscripten.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "attn/kernel.hpp"
#include "convert.hpp"

namespace attn::bindings {
namespace {

// Above this many values in one buffer the call is refused rather than left to fail on memory.
constexpr std::uint64_t kMaxValues = std::uint64_t{1} << 26;

// Results of up to kWholeFloats (4 MB, with the trace) come in one chunk, which lets a new result
// be made by one copy of the buffer instead of filled with zeros first and then copied into.
// Larger results come in chunks of about kChunkFloats (256 kB), each still in the second-level
// cache when the facade copies it out. `npm run bench` times both sides of the line: n = 256 with
// the trace (1.1 MB, one chunk) and n = 1024 (17 MB, chunks of 16 rows).
constexpr std::size_t kWholeFloats = std::size_t{1} << 20;
constexpr std::size_t kChunkFloats = std::size_t{1} << 16;

// The options of the attention that attention_start began, for the chunks that follow.
struct Started {
  bool scale = true, causal = false, has_padding = false, trace = true;
  float temperature = 1.0f;
};

struct Workspace {
  std::vector<float> q, k, v, results, scratch;
  std::vector<std::uint8_t> padding;
  std::uint32_t table[kSlotCount] = {};
  int n_q = 0, n_k = 0, d_k = 0, d_v = 0, chunk_rows = 0;
  std::optional<Started> started;  // none until an attention_start since the last prepare succeeds
};

Workspace& workspace() {
  static Workspace instance;
  return instance;
}

std::uint32_t address(const void* p) {
  return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(p));
}

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

// Query rows per chunk: all of them when the whole trace fits kWholeFloats, else as many as fill
// kChunkFloats (at least one), in whole bands of four rows where there are more than four.
int chunk_rows(int n_q, int n_k, int d_v) {
  const std::size_t per_row = 4 * std::size_t(n_k) + std::size_t(d_v);
  if (per_row * std::size_t(n_q) <= kWholeFloats) return n_q;
  std::size_t rows = std::max<std::size_t>(1, kChunkFloats / per_row);
  if (rows > 4) rows -= rows % 4;
  return static_cast<int>(std::min<std::size_t>(rows, n_q));
}

// The buffers of the chunk of query rows from `first` on, with or without the trace.
AttentionBuffers chunk_buffers(Workspace& w, bool trace) {
  const std::size_t area = std::size_t(w.chunk_rows) * w.n_k;
  float* weights = w.results.data();
  float* output = weights + area;
  float* scores = output + std::size_t(w.chunk_rows) * w.d_v;
  AttentionBuffers buffers{w.q.data(), w.k.data(), w.v.data(), nullptr,         nullptr,
                           nullptr,    weights,    output,     w.scratch.data()};
  if (trace) {
    buffers.scores = scores;
    buffers.scaled = scores + area;
    buffers.masked = scores + 2 * area;
  }
  return buffers;
}

AttentionOptions options_of(const Workspace& w, const Started& started) {
  AttentionOptions options;
  options.scale = started.scale;
  options.temperature = started.temperature;
  options.causal = started.causal;
  if (started.has_padding) options.key_padding = w.padding;
  return options;
}

}  // namespace

std::uintptr_t attention_prepare(int n_q, int n_k, int d_k, int d_v) {
  check_sizes(n_q, n_k, d_k, d_v);
  Workspace& w = workspace();
  w.started.reset();
  const auto size = [](std::size_t a, std::size_t b) { return a * b; };
  const int rows = chunk_rows(n_q, n_k, d_v);
  w.q.resize(size(n_q, d_k));
  w.k.resize(size(n_k, d_k));
  w.v.resize(size(n_k, d_v));
  w.padding.resize(n_k);
  w.results.resize(4 * size(rows, n_k) + size(rows, d_v));
  w.scratch.resize(attention_scratch_size({n_q, n_k, d_k, d_v}));
  w.table[kQ] = address(w.q.data());
  w.table[kK] = address(w.k.data());
  w.table[kV] = address(w.v.data());
  w.table[kPadding] = address(w.padding.data());
  w.table[kResults] = address(w.results.data());
  w.table[kChunkRows] = static_cast<std::uint32_t>(rows);
  w.n_q = n_q, w.n_k = n_k, w.d_k = d_k, w.d_v = d_v, w.chunk_rows = rows;
  return reinterpret_cast<std::uintptr_t>(w.table);
}

void attention_start(int n_q, int n_k, int d_k, int d_v, bool scale, float temperature, bool causal,
                     bool has_padding, bool trace) {
  Workspace& w = workspace();
  w.started.reset();
  if (n_q != w.n_q || n_k != w.n_k || d_k != w.d_k || d_v != w.d_v) {
    throw InvalidArgument("attention: the buffers were prepared for other sizes");
  }
  const Started started{scale, causal, has_padding, trace, temperature};
  const AttentionOptions options = options_of(w, started);
  const AttentionBuffers buffers = chunk_buffers(w, trace);
  const AttentionSizes sizes{n_q, n_k, d_k, d_v};
  attention_pack_inputs(buffers, sizes, options);
  attention_kernel_rows(buffers, sizes, options, 0, w.chunk_rows);
  w.started = started;
}

void attention_rows(int first) {
  Workspace& w = workspace();
  if (!w.started) throw InvalidArgument("attention: no attention was started for these buffers");
  if (first <= 0 || first >= w.n_q || first % w.chunk_rows != 0) {
    throw InvalidArgument("attention: rows from " + std::to_string(first) +
                          " are not a chunk of the " + std::to_string(w.n_q) + " query rows");
  }
  const AttentionOptions options = options_of(w, *w.started);
  attention_kernel_rows(chunk_buffers(w, w.started->trace), {w.n_q, w.n_k, w.d_k, w.d_v}, options,
                        first, std::min(w.chunk_rows, w.n_q - first));
}

}  // namespace attn::bindings

namespace {

// Runs body; returns null, or the message of what it threw as a NUL-terminated string that stays
// valid until the next call, in a buffer of its own so that an error leaves the heap as it was.
// Nothing is thrown across into JavaScript.
template <typename Body>
const char* message_or_null(Body&& body) {
  static char message[1024];
  try {
    body();
    return nullptr;
  } catch (const std::exception&) {
    const std::string text = attn::bindings::current_error_message();
    const std::size_t length = std::min(text.size(), sizeof message - 1);
    std::memcpy(message, text.data(), length);
    message[length] = '\0';
  }
  return message;
}

}  // namespace

// attention_start and attention_rows for the facade, which calls them on every attention call:
// plain exports, which the page calls straight, rather than embind functions, whose generic
// wrapper adds a fixed cost to every call, a large share of a small one (`npm run bench` splits
// a call at n = 16 into its fixed and its growing part). Each returns null, or the message of
// what was wrong.
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_attention_start(int n_q, int n_k, int d_k, int d_v,
                                                                 bool scale, float temperature,
                                                                 bool causal, bool has_padding,
                                                                 bool trace) {
  return message_or_null([&] {
    attn::bindings::attention_start(n_q, n_k, d_k, d_v, scale, temperature, causal, has_padding,
                                    trace);
  });
}

extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_attention_rows(int first) {
  return message_or_null([&] { attn::bindings::attention_rows(first); });
}

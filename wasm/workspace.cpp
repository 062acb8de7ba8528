#include "workspace.hpp"

#include <emscripten/emscripten.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "attn/kernel.hpp"
#include "convert.hpp"

namespace attn::bindings {
namespace {

// Above this many values in one buffer the call is refused rather than left to fail on memory.
constexpr std::uint64_t kMaxValues = std::uint64_t{1} << 26;

struct Workspace {
  std::vector<float> q, k, v, results, scratch;
  std::vector<std::uint8_t> padding;
  std::uint32_t table[kSlotCount] = {};
  int n_q = 0, n_k = 0, d_k = 0, d_v = 0;
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

}  // namespace

std::uintptr_t attention_prepare(int n_q, int n_k, int d_k, int d_v) {
  check_sizes(n_q, n_k, d_k, d_v);
  Workspace& w = workspace();
  const auto size = [](std::size_t a, std::size_t b) { return a * b; };
  w.q.resize(size(n_q, d_k));
  w.k.resize(size(n_k, d_k));
  w.v.resize(size(n_k, d_v));
  w.padding.resize(n_k);
  w.results.resize(4 * size(n_q, n_k) + size(n_q, d_v));
  w.scratch.resize(attention_scratch_size({n_q, n_k, d_k, d_v}));
  w.table[kQ] = address(w.q.data());
  w.table[kK] = address(w.k.data());
  w.table[kV] = address(w.v.data());
  w.table[kPadding] = address(w.padding.data());
  w.table[kResults] = address(w.results.data());
  w.n_q = n_q, w.n_k = n_k, w.d_k = d_k, w.d_v = d_v;
  return reinterpret_cast<std::uintptr_t>(w.table);
}

void attention_run(int n_q, int n_k, int d_k, int d_v, bool scale, float temperature, bool causal,
                   bool has_padding, bool trace) {
  Workspace& w = workspace();
  if (n_q != w.n_q || n_k != w.n_k || d_k != w.d_k || d_v != w.d_v) {
    throw InvalidArgument("attention: the buffers were prepared for other sizes");
  }
  AttentionOptions options;
  options.scale = scale;
  options.temperature = temperature;
  options.causal = causal;
  if (has_padding) options.key_padding = w.padding;
  const std::size_t area = std::size_t(n_q) * n_k;
  float* weights = w.results.data();
  float* output = weights + area;
  float* scores = output + std::size_t(n_q) * d_v;
  AttentionBuffers buffers{w.q.data(), w.k.data(), w.v.data(), nullptr,         nullptr,
                           nullptr,    weights,    output,     w.scratch.data()};
  if (trace) {
    buffers.scores = scores;
    buffers.scaled = scores + area;
    buffers.masked = scores + 2 * area;
  }
  attention_kernel(buffers, {n_q, n_k, d_k, d_v}, options);
}

}  // namespace attn::bindings

// attention_run for the facade, which calls it on every attention call: a plain export, which the
// page calls straight, rather than an embind function, whose generic wrapper measured about
// 0.25 µs a call (a twelfth of a whole call at n = 16). Returns null, or the message of what was
// wrong as a NUL-terminated string that stays valid until the next call, in a buffer of its own
// so that an error leaves the heap as it was; nothing is thrown across into JavaScript.
extern "C" EMSCRIPTEN_KEEPALIVE const char* attn_attention_run(int n_q, int n_k, int d_k, int d_v,
                                                               bool scale, float temperature,
                                                               bool causal, bool has_padding,
                                                               bool trace) {
  static char message[1024];
  try {
    attn::bindings::attention_run(n_q, n_k, d_k, d_v, scale, temperature, causal, has_padding,
                                  trace);
    return nullptr;
  } catch (const std::exception&) {
    const std::string text = attn::bindings::current_error_message();
    const std::size_t length = std::min(text.size(), sizeof message - 1);
    std::memcpy(message, text.data(), length);
    message[length] = '\0';
  }
  return message;
}
